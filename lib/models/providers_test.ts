/**
 * The real provider adapters, built by the registry, against the replay server
 * (recorded wire streams from tests/fixtures/providers/).
 */
import assert from "node:assert/strict";
import { APICallError, isStepCount, jsonSchema, streamText, tool } from "ai";
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import {
  type ReplayScript,
  type ReplayServer,
  startReplayServer,
} from "../../tests/support/replay_server.ts";
import { createModelRegistry } from "./registry.ts";
import { createMemoryUsageRecorder } from "./gateway_fetch.ts";
import type { Env, GetModelOptions } from "./types.ts";
import { loadProviderSdks } from "./provider_sdks.ts";

// These tests build provider models synchronously: load the provider packages up front.
await loadProviderSdks(["openai", "google", "openai-compatible"]);

function envFor(server: ReplayServer, extra: Env = {}): Env {
  return {
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: `${server.url}/v1`,
    GOOGLE_GENERATIVE_AI_API_KEY: "g-test",
    GOOGLE_BASE_URL: `${server.url}/v1beta`,
    CEREBRAS_API_KEY: "c-test",
    CEREBRAS_BASE_URL: `${server.url}/cerebras/v1`,
    ...extra,
  };
}

async function withServer(
  script: ReplayScript,
  fn: (server: ReplayServer) => Promise<void>,
): Promise<void> {
  const server = startReplayServer(script);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

function setup(server: ReplayServer, id: string, options?: GetModelOptions) {
  const recorder = createMemoryUsageRecorder();
  const registry = createModelRegistry({ env: envFor(server), recorder });
  return { model: registry.get(id, options), recorder };
}

const weatherTools = {
  weather: tool({ inputSchema: jsonSchema<{ location: string }>({ type: "object" }) }),
  get_weather: tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }) }),
  GetWeatherArgs: tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }) }),
  get_stock_price: tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }) }),
  read_file: tool({ inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }) }),
};

async function run(model: LanguageModelV4) {
  const errors: unknown[] = [];
  const result = streamText({
    model,
    prompt: "hello",
    tools: weatherTools,
    maxRetries: 0,
    stopWhen: isStepCount(1),
    onError: ({ error }) => {
      errors.push(error);
    },
  });
  const text = await result.text;
  const toolCalls = await result.toolCalls;
  const usage = await result.usage;
  return { text, toolCalls, usage, errors };
}

async function streamParts(model: LanguageModelV4): Promise<LanguageModelV4StreamPart[]> {
  const { stream } = await model.doStream({
    prompt: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
  });
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

// --- OpenAI Responses (the default API) ---

Deno.test("openai responses: text stream", async () => {
  await withServer([{ fixture: "openai-issue-11239.2.chunks.txt" }], async (server) => {
    const { model, recorder } = setup(server, "openai/gpt-5-mini");
    const { text, usage } = await run(model);
    assert.equal(text, "Verification code for issue-11239 is blue-42.");
    assert.ok((usage.outputTokens ?? 0) > 0);
    const req = server.requests[0];
    assert.equal(req.path, "/v1/responses");
    assert.equal(req.headers.authorization, "Bearer sk-test");
    assert.equal((req.body as { model: string }).model, "gpt-5-mini");
    assert.equal((req.body as { stream: boolean }).stream, true);
    await server.waitForClose(0);
    const call = recorder.calls[0];
    assert.equal(call.route, "direct");
    assert.equal(call.status, 200);
    assert.equal(call.outcome, "complete");
    assert.equal(call.inputTokens, usage.inputTokens);
    assert.equal(call.outputTokens, usage.outputTokens);
    assert.ok(call.costUsd !== null && call.costUsd > 0);
  });
});

Deno.test("openai responses: function call", async () => {
  await withServer([{ fixture: "openai-client-tool-search.2.chunks.txt" }], async (server) => {
    const { model } = setup(server, "openai/gpt-5-mini");
    const { toolCalls } = await run(model);
    assert.equal(toolCalls.length, 1);
    assert.equal(toolCalls[0].toolName, "get_weather");
    assert.deepEqual(toolCalls[0].input, { location: "San Francisco, CA", unit: "fahrenheit" });
  });
});

Deno.test("openai responses: an error inside the stream surfaces as an API error (429)", async () => {
  await withServer([{ fixture: "openai-error.1.chunks.txt" }], async (server) => {
    const { model } = setup(server, "openai/gpt-5-mini");
    // The adapter errors its stream with the API error.
    const streamError = await streamParts(model).then(() => undefined, (e) => e);
    assert.ok(APICallError.isInstance(streamError), `got ${streamError}`);
    assert.equal(streamError.statusCode, 429);
    // streamText turns it into an error part and calls onError.
    const errors: unknown[] = [];
    const result = streamText({
      model: setup(server, "openai/gpt-5-mini").model,
      prompt: "hello",
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const streamed: string[] = [];
    let errorPart: unknown;
    for await (const part of result.stream) {
      streamed.push(part.type);
      if (part.type === "error") errorPart = part.error;
    }
    assert.ok(!streamed.includes("text-delta"));
    assert.ok(APICallError.isInstance(errorPart));
    assert.equal(errors.length, 1);
    const error = errors[0];
    assert.ok(APICallError.isInstance(error), `got ${error}`);
    assert.equal(error.statusCode, 429);
    assert.match(error.message, /exceeded your current quota/);
    // Nothing was generated, so the text promise rejects (NoOutputGeneratedError).
    await assert.rejects(async () => await result.text);
  });
});

Deno.test("openai responses: HTTP 400 error body becomes APICallError", async () => {
  await withServer(
    [{ fixture: "reasoning-model-temperature-error.json", status: 400 }],
    async (server) => {
      const { model, recorder } = setup(server, "openai/gpt-5-mini");
      const error = await streamParts(model).then(() => undefined, (e) => e);
      assert.ok(APICallError.isInstance(error));
      assert.equal(error.statusCode, 400);
      assert.equal(error.isRetryable, false);
      assert.match(error.message, /temperature/);
      assert.equal(recorder.calls[0].status, 400);
    },
  );
});

// --- OpenAI Chat Completions ---

Deno.test("openai chat: text stream (raw SSE with [DONE])", async () => {
  await withServer([{
    fixture: "e2aad469b71d1d4894ff833ea147020a9d875eb7ce644a0ff355581690a4cbfd.bin",
  }], async (server) => {
    const { model, recorder } = setup(server, "openai/gpt-4.1-mini", { openaiApi: "chat" });
    const { text, usage } = await run(model);
    assert.match(text, /^I'm unable to provide real-time weather updates/);
    assert.equal(server.requests[0].path, "/v1/chat/completions");
    await server.waitForClose(0);
    assert.equal(recorder.calls[0].inputTokens, usage.inputTokens);
    assert.equal(recorder.calls[0].outputTokens, usage.outputTokens);
  });
});

Deno.test("openai chat: long text fixture framed from chunk lines", async () => {
  await withServer([{ fixture: "openai-text.chunks.txt" }], async (server) => {
    const { model } = setup(server, "openai/gpt-4.1-mini", { openaiApi: "chat" });
    const { text } = await run(model);
    assert.match(text, /^\*\*Holiday Name:\*\* Harmony Day/);
  });
});

Deno.test("openai chat: one tool call and two parallel tool calls", async () => {
  await withServer([
    { fixture: "a247c49c5fcd492bfb7a02a3306ad615ed8d8f649888ebfddfbc3ee151f44d46.bin" },
    { fixture: "f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin" },
  ], async (server) => {
    const one = await run(setup(server, "openai/gpt-4.1-mini", { openaiApi: "chat" }).model);
    assert.equal(one.toolCalls.length, 1);
    assert.equal(one.toolCalls[0].toolName, "get_weather");
    assert.deepEqual(one.toolCalls[0].input, { city: "San Francisco", state: "CA" });
    const two = await run(setup(server, "openai/gpt-4.1-mini", { openaiApi: "chat" }).model);
    assert.deepEqual(two.toolCalls.map((c) => c.toolName), ["GetWeatherArgs", "get_stock_price"]);
    assert.deepEqual(two.toolCalls[1].input, { ticker: "AAPL", exchange: "NASDAQ" });
  });
});

Deno.test("openai chat: HTTP 400 error body becomes APICallError", async () => {
  await withServer(
    [{ fixture: "reasoning-model-legacy-parameter-error.json", status: 400 }],
    async (server) => {
      const { model } = setup(server, "openai/gpt-4.1-mini", { openaiApi: "chat" });
      const error = await streamParts(model).then(() => undefined, (e) => e);
      assert.ok(APICallError.isInstance(error));
      assert.equal(error.statusCode, 400);
      assert.match(error.message, /max_completion_tokens/);
    },
  );
});

Deno.test("OPENAI_API=chat switches OpenAI models to Chat Completions", async () => {
  await withServer([{ fixture: "azure-model-router.1.chunks.txt" }], async (server) => {
    const registry = createModelRegistry({ env: envFor(server, { OPENAI_API: "chat" }) });
    const { text } = await run(registry.get("openai/gpt-5-mini"));
    assert.equal(text, "Capital of Denmark.");
    assert.equal(server.requests[0].path, "/v1/chat/completions");
  });
});

// --- Google Gemini ---

Deno.test("google: text stream", async () => {
  await withServer([{ fixture: "google-text.chunks.txt" }], async (server) => {
    const { model, recorder } = setup(server, "google/gemini-2.5-flash");
    const { text, usage } = await run(model);
    assert.match(text, /^There are \*\*3\*\* "r"s in strawberry/);
    const req = server.requests[0];
    assert.equal(req.path, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assert.equal(req.headers["x-goog-api-key"], "g-test");
    await server.waitForClose(0);
    assert.equal(recorder.calls[0].inputTokens, usage.inputTokens);
    assert.equal(recorder.calls[0].outputTokens, usage.outputTokens);
  });
});

Deno.test("google: function calls (without and with a call id)", async () => {
  await withServer([
    { fixture: "google-tool-call.chunks.txt" },
    { fixture: "issue-10781.1.chunks.txt" },
  ], async (server) => {
    const first = await run(setup(server, "google/gemini-2.5-flash").model);
    assert.equal(first.toolCalls.length, 1);
    assert.equal(first.toolCalls[0].toolName, "weather");
    assert.deepEqual(first.toolCalls[0].input, { location: "San Francisco" });
    const second = await run(setup(server, "google/gemini-2.5-flash").model);
    assert.equal(second.text, "Let me check.");
    assert.equal(second.toolCalls[0].toolName, "get_weather");
    assert.deepEqual(second.toolCalls[0].input, { city: "San Francisco" });
  });
});

Deno.test("google: HTTP 400 and 429 error bodies become APICallError", async () => {
  await withServer([
    { fixture: "issue-8943-gemini-2.5-flash-error.json", status: 400 },
    { fixture: "google-429-retry-info.json", status: 429 },
  ], async (server) => {
    const bad = await streamParts(setup(server, "google/gemini-2.5-flash").model).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(APICallError.isInstance(bad));
    assert.equal(bad.statusCode, 400);
    assert.match(bad.message, /Penalty is not enabled/);
    const limited = await streamParts(setup(server, "google/gemini-2.5-flash").model).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(APICallError.isInstance(limited));
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.isRetryable, true);
  });
});

// --- OpenAI-compatible (Cerebras, OpenRouter, Cloudflare, local endpoint) ---

Deno.test("openai-compatible: text after reasoning", async () => {
  await withServer([{ fixture: "xai-text.chunks.txt" }], async (server) => {
    const { model, recorder } = setup(server, "cerebras/gpt-oss-120b");
    const { text, usage } = await run(model);
    assert.equal(text, "Grok");
    const req = server.requests[0];
    assert.equal(req.path, "/cerebras/v1/chat/completions");
    assert.equal(req.headers.authorization, "Bearer c-test");
    assert.deepEqual((req.body as { stream_options: unknown }).stream_options, {
      include_usage: true,
    });
    await server.waitForClose(0);
    assert.equal(recorder.calls[0].provider, "cerebras");
    assert.equal(recorder.calls[0].family, "openai-compatible");
    assert.equal(recorder.calls[0].outputTokens, usage.outputTokens);
  });
});

Deno.test("openai-compatible: tool calls (xAI, and Anthropic's index-1 edge case)", async () => {
  await withServer([
    { fixture: "xai-tool-call.chunks.txt" },
    { fixture: "anthropic-fallback-tool-call.sse" },
  ], async (server) => {
    const xai = await run(setup(server, "cerebras/gpt-oss-120b").model);
    assert.equal(xai.toolCalls.length, 1);
    assert.equal(xai.toolCalls[0].toolName, "weather");
    assert.deepEqual(xai.toolCalls[0].input, { location: "San Francisco" });
    const anthropic = await run(setup(server, "cerebras/gpt-oss-120b").model);
    assert.equal(anthropic.text, "Reading it.");
    assert.equal(anthropic.toolCalls[0].toolName, "read_file");
    assert.deepEqual(anthropic.toolCalls[0].input, { path: "a.txt" });
  });
});

Deno.test("openai-compatible: HTTP 400 and 429 become APICallError", async () => {
  await withServer([
    { fixture: "reasoning-model-legacy-parameter-error.json", status: 400 },
    { fixture: "openai-error.1.json", status: 429 },
  ], async (server) => {
    const bad = await streamParts(setup(server, "cerebras/gpt-oss-120b").model).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(APICallError.isInstance(bad));
    assert.equal(bad.statusCode, 400);
    const limited = await streamParts(setup(server, "cerebras/gpt-oss-120b").model).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(APICallError.isInstance(limited));
    assert.equal(limited.statusCode, 429);
    assert.match(limited.message, /quota/);
  });
});

Deno.test("openrouter, cloudflare and the local endpoint use their own base URLs and keys", async () => {
  await withServer([{ fixture: "xai-text.chunks.txt" }], async (server) => {
    const registry = createModelRegistry({
      env: {
        OPENROUTER_API_KEY: "or-key",
        OPENROUTER_BASE_URL: `${server.url}/openrouter/api/v1`,
        CLOUDFLARE_ACCOUNT_ID: "acc",
        CLOUDFLARE_API_TOKEN: "cf-token",
        CLOUDFLARE_BASE_URL: `${server.url}/client/v4/accounts/acc/ai/v1`,
        LOCAL_OPENAI_BASE_URL: `${server.url}/ollama/v1/`,
        LOCAL_OPENAI_MODEL: "qwen2.5",
      },
    });
    await run(registry.get("openrouter/meta-llama/llama-3.3-70b-instruct"));
    await run(registry.get("cloudflare/llama-3.3-70b-instruct-fp8-fast"));
    await run(registry.get("local-endpoint"));
    const [or, cf, local] = server.requests;
    assert.equal(or.path, "/openrouter/api/v1/chat/completions");
    assert.equal(or.headers.authorization, "Bearer or-key");
    assert.equal((or.body as { model: string }).model, "meta-llama/llama-3.3-70b-instruct");
    assert.equal(cf.path, "/client/v4/accounts/acc/ai/v1/chat/completions");
    assert.equal(cf.headers.authorization, "Bearer cf-token");
    assert.equal((cf.body as { model: string }).model, "@cf/meta/llama-3.3-70b-instruct-fp8-fast");
    assert.equal(local.path, "/ollama/v1/chat/completions");
    assert.equal(local.headers.authorization, undefined);
    assert.equal((local.body as { model: string }).model, "qwen2.5");
  });
});

Deno.test("abort reaches the provider's HTTP connection before the stream's end", async () => {
  await withServer([{ fixture: "openai-text.chunks.txt", delayMs: 25 }], async (server) => {
    const { model, recorder } = setup(server, "openai/gpt-4.1-mini", { openaiApi: "chat" });
    const controller = new AbortController();
    const result = streamText({
      model,
      prompt: "hello",
      maxRetries: 0,
      abortSignal: controller.signal,
    });
    let deltas = 0;
    for await (const part of result.stream) {
      if (part.type === "text-delta" && ++deltas === 3) {
        controller.abort();
      }
    }
    const close = await server.waitForClose(0);
    assert.equal(close.reason, "client-closed");
    assert.ok(close.chunksSent < 300);
    // Let the recorder see the cancelled body.
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(recorder.calls[0].outcome, "aborted");
  });
});
