/**
 * Deadlines of model calls against a real loopback provider: a provider that never
 * answers, that sends headers but no body, or that stalls mid-answer is given up within
 * the deadline, its connection is closed, the call fails with a ModelDeadlineError and
 * is recorded; through a gateway, a first-byte hang is repeated directly, a stall is not.
 */
import assert from "node:assert/strict";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import {
  type ReplayScript,
  type ReplayServer,
  type ReplayStep,
  startReplayServer,
} from "../../tests/support/replay_server.ts";
import { type SilentServer, startSilentServer } from "../../tests/support/silent_server.ts";
import {
  DEFAULT_MODEL_DEADLINES,
  findModelDeadlineError,
  ModelDeadlineError,
  resolveModelDeadlines,
} from "./deadlines.ts";
import { createMemoryUsageRecorder } from "./gateway_fetch.ts";
import { createModelRegistry } from "./registry.ts";
import { loadProviderSdks } from "./provider_sdks.ts";

// These tests build provider models synchronously: load the provider packages up front.
await loadProviderSdks(["openai", "google", "openai-compatible"]);

const DEADLINES = { firstByteMs: 200, idleMs: 200 };
/** Bound of every call: far above the deadlines, far below "hangs". */
const BOUND_MS = 3_000;

/** Two tokens of an OpenAI-compatible stream. */
const TWO_TOKENS = [
  'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}\n\n',
  'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"lo"}}]}\n\n',
];
const NO_BODY: ReplayStep = { fixture: "xai-text.chunks.txt", stallAfterChunks: 0 };
const STALL_AFTER_TWO: ReplayStep = { body: TWO_TOKENS, stallAfterChunks: 2 };

/** Runs `fn` with a replay server and a silent one (the provider that never answers). */
async function withServer(
  script: ReplayScript,
  fn: (server: ReplayServer, silent: SilentServer) => Promise<void>,
): Promise<void> {
  const server = startReplayServer(script);
  const silent = startSilentServer();
  try {
    await fn(server, silent);
  } finally {
    await silent.close();
    await server.close();
  }
}

/** The Cerebras model with its direct URL on `direct` (a base URL) and maybe a gateway. */
function cerebras(direct: { url: string }, gateway = "") {
  const recorder = createMemoryUsageRecorder();
  const registry = createModelRegistry({
    env: {
      CEREBRAS_API_KEY: "c-key",
      CEREBRAS_BASE_URL: `${direct.url}/direct/v1`,
      AI_GATEWAY_URL: gateway,
    },
    recorder,
    deadlines: DEADLINES,
  });
  return { model: registry.get("cerebras/gpt-oss-120b"), recorder };
}

/**
 * Streams one call; resolves with the text so far and the error it ended with. Bounded:
 * a call still running after BOUND_MS is aborted (so the server can shut down) and fails.
 */
async function call(model: LanguageModelV4): Promise<{ text: string; error: unknown }> {
  const abort = new AbortController();
  let text = "";
  const run = async () => {
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
      abortSignal: abort.signal,
    });
    for await (const part of stream) {
      if (part.type === "text-delta") text += part.delta;
      if (part.type === "error") throw part.error;
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`The call still ran after ${BOUND_MS} ms: no deadline fired`));
    }, BOUND_MS);
  });
  try {
    const error = await Promise.race([run().then(() => undefined, (e) => e), bound]);
    return { text, error };
  } finally {
    clearTimeout(timer);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

function assertDeadline(error: unknown, kind: "first-byte" | "idle") {
  const deadline = findModelDeadlineError(error);
  assert.ok(deadline, `a ModelDeadlineError, got ${error}`);
  assert.equal(deadline.kind, kind);
  assert.equal(deadline.modelId, "cerebras/gpt-oss-120b");
  const field = kind === "first-byte" ? "firstByteMs" : "idleMs";
  assert.equal(deadline.deadlineMs, DEADLINES[field]);
  assert.match(deadline.message, /"cerebras\/gpt-oss-120b"/);
  assert.match(deadline.message, /200 ms/);
  assert.match(deadline.message, new RegExp(`modelDeadlines\\.${field}`));
}

Deno.test("deadline: a provider that never sends headers is given up and its connection closed", async () => {
  await withServer([NO_BODY], async (_server, silent) => {
    const { model, recorder } = cerebras(silent);
    const { error } = await call(model);
    assertDeadline(error, "first-byte");
    await silent.waitForClose(0);
    assert.ok(silent.received[0] > 0, "the request was sent");
    await settle();
    assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome, c.ttfbMs]), [
      ["direct", 0, "error", null],
    ]);
  });
});

Deno.test("deadline: headers but no body byte is a first-byte expiry", async () => {
  await withServer([NO_BODY], async (server) => {
    const { model, recorder } = cerebras(server);
    const { error } = await call(model);
    assertDeadline(error, "first-byte");
    assert.deepEqual(await server.waitForClose(0).then((c) => [c.reason, c.chunksSent]), [
      "client-closed",
      0,
    ]);
    await settle();
    // Headers came, so the status is known; no body byte, so no ttfb.
    assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome, c.ttfbMs]), [
      ["direct", 200, "error", null],
    ]);
  });
});

Deno.test("deadline: a stall after two tokens fails with the idle deadline; the tokens came through", async () => {
  await withServer([STALL_AFTER_TWO], async (server) => {
    const { model, recorder } = cerebras(server);
    const { text, error } = await call(model);
    assert.equal(text, "Hello");
    assertDeadline(error, "idle");
    assert.deepEqual(await server.waitForClose(0).then((c) => [c.reason, c.chunksSent]), [
      "client-closed",
      2,
    ]);
    await settle();
    assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome]), [
      ["direct", 200, "error"],
    ]);
    assert.ok(recorder.calls[0].ttfbMs !== null);
  });
});

Deno.test("deadline: an idle deadline shorter than the first-byte one still fires on time", async () => {
  await withServer([STALL_AFTER_TWO], async (server) => {
    // The first-byte deadline is beyond the call's bound: only the idle one can end the call.
    const registry = createModelRegistry({
      env: { CEREBRAS_API_KEY: "c-key", CEREBRAS_BASE_URL: `${server.url}/direct/v1` },
      deadlines: { firstByteMs: BOUND_MS * 4, idleMs: 200 },
    });
    const { text, error } = await call(registry.get("cerebras/gpt-oss-120b"));
    assert.equal(text, "Hello");
    const deadline = findModelDeadlineError(error);
    assert.equal(deadline?.kind, "idle", `an idle deadline, got ${error}`);
    await server.waitForClose(0);
  });
});

Deno.test("deadline: a slow but steady stream is no idle stall, however long it takes in all", async () => {
  const words = ["one ", "two ", "three ", "four ", "five ", "six"];
  const body = [
    ...words.map((w) =>
      `data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${w}"}}]}\n\n`
    ),
    'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
    "data: [DONE]\n\n",
  ];
  // 8 gaps of 50 ms: each well inside idleMs, all together twice as long.
  await withServer([{ body, delayMs: 50 }], async (server) => {
    const { model, recorder } = cerebras(server);
    const started = performance.now();
    const { text, error } = await call(model);
    assert.equal(error, undefined);
    assert.equal(text, words.join(""));
    assert.ok(performance.now() - started > DEADLINES.idleMs, "the whole stream outlasts idleMs");
    await settle();
    assert.equal(recorder.calls[0].outcome, "complete");
  });
});

Deno.test("deadline: a gateway that never answers is repeated once directly", async () => {
  await withServer([{ fixture: "xai-text.chunks.txt" }], async (server, silent) => {
    const { model, recorder } = cerebras(server, `${silent.url}/gw`);
    const { text, error } = await call(model);
    assert.equal(error, undefined);
    assert.equal(text, "Grok");
    await silent.waitForClose(0);
    assert.deepEqual(server.requests.map((r) => r.path), ["/direct/v1/chat/completions"]);
    await settle();
    assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome]), [
      ["gateway", 0, "error"],
      ["direct-after-gateway-error", 200, "complete"],
    ]);
  });
});

Deno.test("deadline: a gateway that sends headers but no body is repeated once directly", async () => {
  await withServer(
    (req) => req.path.startsWith("/gw/") ? NO_BODY : { fixture: "xai-text.chunks.txt" },
    async (server) => {
      const { model, recorder } = cerebras(server, `${server.url}/gw`);
      const { text, error } = await call(model);
      assert.equal(error, undefined);
      assert.equal(text, "Grok");
      assert.deepEqual(server.requests.map((r) => r.path), [
        "/gw/cerebras/chat/completions",
        "/direct/v1/chat/completions",
      ]);
      assert.equal((await server.waitForClose(0)).reason, "client-closed");
      await settle();
      assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome]), [
        ["gateway", 200, "error"],
        ["direct-after-gateway-error", 200, "complete"],
      ]);
    },
  );
});

Deno.test("deadline: a direct route that hangs after the gateway hung fails the call", async () => {
  await withServer([NO_BODY], async (server, silent) => {
    const { model, recorder } = cerebras(server, `${silent.url}/gw`);
    const { error } = await call(model);
    assertDeadline(error, "first-byte");
    await silent.waitForClose(0);
    assert.deepEqual(server.requests.map((r) => r.path), ["/direct/v1/chat/completions"]);
    assert.equal((await server.waitForClose(0)).reason, "client-closed");
    await settle();
    assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome]), [
      ["gateway", 0, "error"],
      ["direct-after-gateway-error", 200, "error"],
    ]);
  });
});

Deno.test("deadline: a gateway that stalls after sending tokens is not repeated", async () => {
  await withServer([STALL_AFTER_TWO, { fixture: "xai-text.chunks.txt" }], async (server) => {
    const { model, recorder } = cerebras(server, `${server.url}/gw`);
    const { text, error } = await call(model);
    assert.equal(text, "Hello");
    assertDeadline(error, "idle");
    assert.equal(server.requests.length, 1);
    await settle();
    assert.deepEqual(recorder.calls.map((c) => [c.route, c.status, c.outcome]), [
      ["gateway", 200, "error"],
    ]);
  });
});

Deno.test("deadline: a 4xx from a gateway is never repeated, deadlines or not", async () => {
  await withServer(
    [{ fixture: "reasoning-model-legacy-parameter-error.json", status: 400 }],
    async (server) => {
      const { model } = cerebras(server, `${server.url}/gw`);
      const { error } = await call(model);
      assert.ok(error && !findModelDeadlineError(error));
      assert.equal(server.requests.length, 1);
    },
  );
});

Deno.test("resolveModelDeadlines fills defaults and names a bad field", () => {
  assert.deepEqual(resolveModelDeadlines(undefined), DEFAULT_MODEL_DEADLINES);
  assert.deepEqual(resolveModelDeadlines({ idleMs: 5 }), {
    firstByteMs: DEFAULT_MODEL_DEADLINES.firstByteMs,
    idleMs: 5,
  });
  assert.throws(
    () => resolveModelDeadlines({ firstByteMs: 0 }, "fresh.config.ts: "),
    /fresh\.config\.ts: "modelDeadlines\.firstByteMs" must be .*, got 0\./,
  );
  assert.throws(() => resolveModelDeadlines({ idleMs: 1.5 }), /"modelDeadlines\.idleMs"/);
  assert.throws(() => createModelRegistry({ env: {}, deadlines: { idleMs: -1 } }), /idleMs/);
});

Deno.test("findModelDeadlineError looks through causes", () => {
  const deadline = new ModelDeadlineError("idle", "m", 5);
  assert.equal(findModelDeadlineError(new Error("wrapped", { cause: deadline })), deadline);
  assert.equal(findModelDeadlineError(new Error("other")), undefined);
  assert.equal(findModelDeadlineError("text"), undefined);
});
