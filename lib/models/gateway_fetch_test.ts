import assert from "node:assert/strict";
import { APICallError, streamText } from "ai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import {
  refusedUrl,
  type ReplayScript,
  type ReplayServer,
  startReplayServer,
} from "../../tests/support/replay_server.ts";
import { createMemoryUsageRecorder, createRoutedFetch } from "./gateway_fetch.ts";
import { createModelRegistry } from "./registry.ts";
import type { Env } from "./types.ts";
import { loadProviderSdks } from "./provider_sdks.ts";

// These tests build provider models synchronously: load the provider packages up front.
await loadProviderSdks(["openai", "google", "openai-compatible"]);

const GATEWAY_500 = JSON.stringify({ error: { message: "Gateway upstream failure" } });

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

function cerebras(server: ReplayServer, gateway: string, extra: Env = {}) {
  const recorder = createMemoryUsageRecorder();
  const registry = createModelRegistry({
    env: {
      CEREBRAS_API_KEY: "c-key",
      CEREBRAS_BASE_URL: `${server.url}/direct/v1`,
      AI_GATEWAY_URL: gateway,
      ...extra,
    },
    recorder,
  });
  return { model: registry.get("cerebras/gpt-oss-120b"), recorder };
}

async function text(model: LanguageModelV4): Promise<string> {
  const result = streamText({ model, prompt: "hello", maxRetries: 0 });
  return await result.text;
}

async function doStreamText(model: LanguageModelV4): Promise<string> {
  const { stream } = await model.doStream({
    prompt: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
  });
  let out = "";
  for await (const part of stream) {
    if (part.type === "text-delta") out += part.delta;
    if (part.type === "error") throw part.error;
  }
  return out;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

Deno.test("gateway: calls go through the gateway path when it answers", async () => {
  await withServer([{ fixture: "xai-text.chunks.txt" }], async (server) => {
    const { model, recorder } = cerebras(server, `${server.url}/gw`, { AI_GATEWAY_TOKEN: "gw" });
    assert.equal(await text(model), "Grok");
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0].path, "/gw/cerebras/chat/completions");
    assert.equal(server.requests[0].headers.authorization, "Bearer c-key");
    assert.equal(server.requests[0].headers["cf-aig-authorization"], "Bearer gw");
    await settle();
    assert.equal(recorder.calls.length, 1);
    assert.equal(recorder.calls[0].route, "gateway");
    assert.equal(recorder.calls[0].status, 200);
    assert.ok(recorder.calls[0].inputTokens! > 0 && recorder.calls[0].outputTokens! > 0);
  });
});

Deno.test("gateway: a 500 is repeated once directly against the provider", async () => {
  await withServer(
    (req) =>
      req.path.startsWith("/gw/")
        ? { body: GATEWAY_500, status: 500, headers: { "content-type": "application/json" } }
        : { fixture: "xai-text.chunks.txt" },
    async (server) => {
      const { model, recorder } = cerebras(server, `${server.url}/gw`, { AI_GATEWAY_TOKEN: "gw" });
      assert.equal(await text(model), "Grok");
      assert.deepEqual(server.requests.map((r) => r.path), [
        "/gw/cerebras/chat/completions",
        "/direct/v1/chat/completions",
      ]);
      // Same request body both times; the gateway token only goes to the gateway.
      assert.deepEqual(server.requests[0].body, server.requests[1].body);
      assert.equal(server.requests[1].headers["cf-aig-authorization"], undefined);
      assert.equal(server.requests[1].headers.authorization, "Bearer c-key");
      await settle();
      assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome]), [
        ["gateway", 500, "error"],
        ["direct-after-gateway-error", 200, "complete"],
      ]);
      assert.equal(recorder.calls[0].costUsd, null);
      assert.ok(recorder.calls[1].costUsd! > 0);
    },
  );
});

Deno.test("gateway: a 400 is never repeated", async () => {
  await withServer(
    [{ fixture: "reasoning-model-legacy-parameter-error.json", status: 400 }],
    async (server) => {
      const { model, recorder } = cerebras(server, `${server.url}/gw`);
      const error = await doStreamText(model).then(() => undefined, (e) => e);
      assert.ok(APICallError.isInstance(error));
      assert.equal(error.statusCode, 400);
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0].path, "/gw/cerebras/chat/completions");
      await settle();
      assert.deepEqual(recorder.calls.map((c) => [c.route, c.status]), [["gateway", 400]]);
    },
  );
});

Deno.test("gateway: a 429 is never repeated", async () => {
  await withServer([{ fixture: "openai-error.1.json", status: 429 }], async (server) => {
    const { model } = cerebras(server, `${server.url}/gw`);
    const error = await doStreamText(model).then(() => undefined, (e) => e);
    assert.ok(APICallError.isInstance(error));
    assert.equal(error.statusCode, 429);
    assert.equal(server.requests.length, 1);
  });
});

Deno.test("gateway: connection refused is repeated directly", async () => {
  await withServer([{ fixture: "xai-text.chunks.txt" }], async (server) => {
    const { model, recorder } = cerebras(server, `${refusedUrl()}/gw`);
    assert.equal(await text(model), "Grok");
    assert.deepEqual(server.requests.map((r) => r.path), ["/direct/v1/chat/completions"]);
    await settle();
    assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome, c.ttfbMs]), [
      ["gateway", 0, "error", null],
      ["direct-after-gateway-error", 200, "complete", recorder.calls[1].ttfbMs],
    ]);
  });
});

Deno.test("gateway: a failure after the first bytes is not repeated", async () => {
  await withServer([{ fixture: "xai-text.chunks.txt", failAfterChunks: 3 }], async (server) => {
    const { model, recorder } = cerebras(server, `${server.url}/gw`);
    const error = await doStreamText(model).then(() => undefined, (e) => e);
    assert.ok(error, "the broken stream surfaces as an error");
    assert.equal(server.requests.length, 1);
    await settle();
    assert.equal(recorder.calls.length, 1);
    assert.equal(recorder.calls[0].route, "gateway");
    assert.equal(recorder.calls[0].status, 200);
    assert.equal(recorder.calls[0].outcome, "error");
  });
});

Deno.test("gateway: the direct URL is used when no gateway is configured", async () => {
  await withServer([{ fixture: "xai-text.chunks.txt" }], async (server) => {
    const { model, recorder } = cerebras(server, "");
    assert.equal(await text(model), "Grok");
    assert.equal(server.requests[0].path, "/direct/v1/chat/completions");
    await settle();
    assert.equal(recorder.calls[0].route, "direct");
  });
});

Deno.test("gateway: OpenAI and Google go through their gateway paths too; the local endpoint never", async () => {
  await withServer(
    (req) =>
      req.path.includes("google-ai-studio")
        ? { fixture: "google-text.chunks.txt" }
        : req.path.includes("/openai/")
        ? { fixture: "openai-issue-11239.2.chunks.txt" }
        : { fixture: "xai-text.chunks.txt" },
    async (server) => {
      const registry = createModelRegistry({
        env: {
          AI_GATEWAY_URL: `${server.url}/v1/acc/gw/`,
          OPENAI_API_KEY: "o",
          OPENAI_BASE_URL: `${server.url}/openai-direct/v1`,
          GOOGLE_GENERATIVE_AI_API_KEY: "g",
          GOOGLE_BASE_URL: `${server.url}/google-direct/v1beta`,
          LOCAL_OPENAI_BASE_URL: `${server.url}/ollama/v1`,
        },
      });
      await text(registry.get("openai/gpt-5-mini"));
      await text(registry.get("google/gemini-2.5-flash"));
      await text(registry.get("local-endpoint"));
      assert.deepEqual(server.requests.map((r) => r.path), [
        "/v1/acc/gw/openai/responses",
        "/v1/acc/gw/google-ai-studio/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
        "/ollama/v1/chat/completions",
      ]);
    },
  );
});

Deno.test("routed fetch: the caller's abort is never repeated", async () => {
  await withServer([{ fixture: "xai-text.chunks.txt", headersDelayMs: 200 }], async (server) => {
    const recorder = createMemoryUsageRecorder();
    const routed = createRoutedFetch({
      gatewayBaseUrl: `${server.url}/gw`,
      directBaseUrl: `${server.url}/direct`,
      family: "openai-compatible",
      provider: "cerebras",
      modelId: "cerebras/gpt-oss-120b",
      recorder,
    });
    const controller = new AbortController();
    // Abort once the gateway holds the request (its headers wait 200 ms): a fixed 20 ms timer
    // fired before a loaded machine had sent it, and no request was seen at all.
    const sent = (async () => {
      for (let i = 0; i < 1000 && server.requests.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 5));
      }
      controller.abort();
    })();
    await assert.rejects(() =>
      routed(`${server.url}/direct/chat/completions`, {
        method: "POST",
        body: "{}",
        signal: controller.signal,
      })
    );
    await sent;
    assert.equal(server.requests.length, 1);
    assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome]), [
      ["gateway", 0, "aborted"],
    ]);
  });
});

Deno.test("routed fetch: records ttfb, total time and tokens with an injected clock", async () => {
  let now = 1_000;
  const body = [
    'data: {"choices":[{"delta":{"content":"hi"}}]}\n\n',
    'data: {"choices":[],"usage":{"prompt_tokens":1000,"completion_tokens":500}}\n\n',
    "data: [DONE]\n\n",
  ];
  const fakeFetch: typeof fetch = () => {
    now += 10; // headers after 10 ms
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        now += 5;
        if (i < body.length) controller.enqueue(new TextEncoder().encode(body[i++]));
        else controller.close();
      },
    }, { highWaterMark: 0 });
    return Promise.resolve(
      new Response(stream, { headers: { "content-type": "text/event-stream" } }),
    );
  };
  const recorder = createMemoryUsageRecorder();
  const routed = createRoutedFetch({
    directBaseUrl: "https://api.example/v1",
    family: "openai-compatible",
    provider: "openrouter",
    modelId: "openrouter/x",
    pricing: { inputPerMTok: 0.4, outputPerMTok: 1.6 },
    fetch: fakeFetch,
    recorder,
    clock: () => now,
  });
  const res = await routed("https://api.example/v1/chat/completions", { method: "POST" });
  assert.equal((await res.text()).split("\n\n").length, 4);
  assert.deepEqual(recorder.calls, [{
    family: "openai-compatible",
    provider: "openrouter",
    model: "openrouter/x",
    route: "direct",
    status: 200,
    ttfbMs: 15,
    totalMs: 30,
    outcome: "complete",
    inputTokens: 1000,
    outputTokens: 500,
    costUsd: (1000 * 0.4 + 500 * 1.6) / 1e6,
    at: 1_000,
  }]);
});

Deno.test('routed fetch: tokens still read past chunks that carry `"usage":null`', async () => {
  const cases: Array<{ lines: string[]; tokens: [number | null, number | null] }> = [
    // OpenAI Chat: usage null on every chunk, the totals on the last.
    {
      lines: [
        '{"choices":[{"delta":{"content":"usage"}}],"usage":null}',
        '{"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3}}',
      ],
      tokens: [7, 3],
    },
    // A null usage beside a real one (Responses shape) is still parsed.
    {
      lines: ['{"usage":null,"response":{"usage":{"input_tokens":5,"output_tokens":6}}}'],
      tokens: [5, 6],
    },
    // Only nulls: nothing recorded.
    { lines: ['{"choices":[],"usage":null}'], tokens: [null, null] },
  ];
  for (const { lines, tokens } of cases) {
    const recorder = createMemoryUsageRecorder();
    const body = lines.map((l) => `data: ${l}\n\n`).join("") + "data: [DONE]\n\n";
    const routed = createRoutedFetch({
      directBaseUrl: "https://api.example/v1",
      family: "openai",
      modelId: "openai/x",
      fetch: () =>
        Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } })),
      recorder,
    });
    await (await routed("https://api.example/v1/chat/completions", { method: "POST" })).text();
    assert.deepEqual(
      recorder.calls.map((c) => [c.inputTokens, c.outputTokens]),
      [tokens],
      lines.join(" "),
    );
  }
});

Deno.test("routed fetch: a stopped call's tokens are estimated, not lost", async () => {
  const pieces = ["Hello there, ", "this answer ", "is stopped ", "before its usage."];
  const events = pieces.map((p) =>
    `data: ${JSON.stringify({ choices: [{ delta: { content: p } }] })}\n\n`
  );
  const fakeFetch: typeof fetch = () => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        // Two events, then the provider keeps the stream open: the caller stops it.
        if (i < 2) c.enqueue(new TextEncoder().encode(events[i++]));
      },
    });
    return Promise.resolve(
      new Response(body, { headers: { "content-type": "text/event-stream" } }),
    );
  };
  const recorder = createMemoryUsageRecorder();
  const routed = createRoutedFetch({
    directBaseUrl: "https://api.example/v1",
    family: "openai-compatible",
    provider: "cerebras",
    modelId: "cerebras/gpt-oss-120b",
    pricing: { inputPerMTok: 1, outputPerMTok: 2 },
    recorder,
    fetch: fakeFetch,
  });
  const requestBody = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(397) }] });
  const res = await routed("https://api.example/v1/chat/completions", {
    method: "POST",
    body: requestBody,
  });
  const reader = res.body!.getReader();
  await reader.read();
  await reader.read();
  await reader.cancel();
  await settle();
  const [call] = recorder.calls;
  assert.equal(call.outcome, "aborted");
  assert.equal(call.estimated, true);
  assert.equal(call.inputTokens, Math.ceil(requestBody.length / 4));
  assert.equal(call.outputTokens, Math.ceil((pieces[0] + pieces[1]).length / 4));
  assert.ok((call.costUsd ?? 0) > 0, "the stopped call has a cost");
});
