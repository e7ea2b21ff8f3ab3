/**
 * The engine against the SDK's own loop as the oracle: the same model script
 * and tools run through `runTurn` and through `streamText(...).toUIMessageStream()`
 * must send the model the same prompt at every step and give the client the same
 * message. Then what only the engine decides: totals, abort, errors, the bound,
 * deadlines of a real provider call.
 */
import assert from "node:assert/strict";
import {
  convertToModelMessages,
  isStepCount,
  type ModelMessage,
  readUIMessageStream,
  streamText,
  tool,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { z } from "zod";
import type { SiteSearch } from "@/lib/search/types.ts";
import { createModelRegistry } from "@/lib/models/registry.ts";
import { findModelDeadlineError } from "@/lib/models/deadlines.ts";
import { startReplayServer } from "@/tests/support/replay_server.ts";
import { startSilentServer } from "@/tests/support/silent_server.ts";
import { createSearchTool } from "@/lib/tools/search_site.ts";
import { runTurn, type RunTurnOptions, withStepLimitInstruction } from "./run_turn.ts";
import { loadProviderSdks } from "@/lib/models/provider_sdks.ts";

// These tests build provider models synchronously: load the provider packages up front.
await loadProviderSdks(["openai", "google", "openai-compatible", "offline"]);

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});
const finish = (
  reason: "stop" | "tool-calls",
  u: LanguageModelV4Usage = usage(10, 5),
): LanguageModelV4StreamPart => ({
  type: "finish",
  finishReason: { unified: reason, raw: reason },
  usage: u,
});
const text = (id: string, ...deltas: string[]): LanguageModelV4StreamPart[] => [
  { type: "text-start", id },
  ...deltas.map((delta) => ({ type: "text-delta" as const, id, delta })),
  { type: "text-end", id },
];
const call = (
  toolCallId: string,
  toolName: string,
  input: unknown,
): LanguageModelV4StreamPart[] => [
  { type: "tool-input-start", id: toolCallId, toolName },
  { type: "tool-input-delta", id: toolCallId, delta: JSON.stringify(input) },
  { type: "tool-input-end", id: toolCallId },
  { type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) },
];

/** What the scripted model says when it may not call a tool but its script does. */
const TOOLLESS_ANSWER = "From what I have: enough.";

/**
 * A model that streams `script[i]` on its i-th call (the last one again after the end).
 * Like a real provider, a call without tools (or with toolChoice "none") gets no tool
 * call: a step that would call one answers TOOLLESS_ANSWER instead, with the same usage.
 */
function scriptedModel(
  script: LanguageModelV4StreamPart[][],
  opts: { paceMs?: number; disobedient?: boolean } = {},
) {
  const calls: LanguageModelV4CallOptions[] = [];
  const model: LanguageModelV4 = {
    specificationVersion: "v4",
    provider: "test",
    modelId: "test",
    supportedUrls: {},
    doGenerate() {
      throw new Error("not used");
    },
    // deno-lint-ignore require-await
    async doStream(options) {
      calls.push(options);
      const scripted = script[Math.min(calls.length - 1, script.length - 1)];
      const toolless = !opts.disobedient &&
        (!options.tools?.length || options.toolChoice?.type === "none");
      const finishPart = scripted.find((p) => p.type === "finish");
      const parts = toolless && scripted.some((p) => p.type === "tool-call")
        ? [
          ...text("toolless", TOOLLESS_ANSWER),
          finish("stop", finishPart?.type === "finish" ? finishPart.usage : undefined),
        ]
        : scripted;
      let i = 0;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async pull(c) {
            if (opts.paceMs) await new Promise((r) => setTimeout(r, opts.paceMs));
            if (options.abortSignal?.aborted) return c.error(options.abortSignal.reason);
            if (i < parts.length) c.enqueue(parts[i++]);
            else c.close();
          },
        }),
      };
    },
  };
  return { model, calls };
}

const tools = {
  lookup: tool({
    description: "Looks a word up.",
    inputSchema: z.object({ word: z.string().min(1) }),
    execute: async ({ word }) => {
      await new Promise((r) => setTimeout(r, 1));
      if (word === "boom") throw new Error("lookup exploded");
      return { word, meaning: `meaning of ${word}` };
    },
  }),
  shout: tool({
    description: "Shouts a word.",
    inputSchema: z.object({ word: z.string() }),
    execute: ({ word }) => word.toUpperCase(),
  }),
} satisfies ToolSet;

const GENERIC = "Something failed.";
const MAX_OUTPUT_TOKENS = 1234;
const MESSAGES: ModelMessage[] = [{ role: "user", content: "Define two words." }];

async function lastMessage(
  stream: ReadableStream<UIMessageChunk>,
  continued?: UIMessage,
): Promise<UIMessage> {
  let last: UIMessage | undefined;
  const message = continued && structuredClone(continued);
  for await (const m of readUIMessageStream({ stream, message })) last = m;
  return structuredClone(last!);
}

function chunksStream(chunks: UIMessageChunk[]): ReadableStream<UIMessageChunk> {
  return new ReadableStream({
    start(c) {
      chunks.forEach((x) => c.enqueue(x));
      c.close();
    },
  });
}

async function ours(
  script: LanguageModelV4StreamPart[][],
  extra: Partial<RunTurnOptions> = {},
  modelOptions: { disobedient?: boolean } = {},
) {
  const { model, calls } = scriptedModel(script, modelOptions);
  const chunks: UIMessageChunk[] = [];
  const end = await runTurn({
    model,
    instructions: "Be brief.",
    messages: MESSAGES,
    tools,
    maxSteps: 5,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    abortSignal: new AbortController().signal,
    messageId: "m1",
    errorText: () => GENERIC,
    ...extra,
  }, (c) => chunks.push(c));
  return { chunks, calls, end, message: await lastMessage(chunksStream(chunks)) };
}

async function sdk(
  script: LanguageModelV4StreamPart[][],
  maxSteps = 5,
  toolSet: ToolSet = tools,
  modelOptions: { disobedient?: boolean } = {},
) {
  const { model, calls } = scriptedModel(script, modelOptions);
  const result = streamText({
    model,
    instructions: "Be brief.",
    messages: MESSAGES,
    tools: toolSet,
    stopWhen: isStepCount(maxSteps),
    // The engine's bound: the last allowed step has no tools and is told to answer.
    prepareStep: ({ stepNumber }) =>
      stepNumber === maxSteps - 1
        ? {
          activeTools: [],
          toolChoice: "none",
          instructions: withStepLimitInstruction("Be brief."),
        }
        : undefined,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    maxRetries: 0,
  });
  const message = await lastMessage(
    result.toUIMessageStream({ generateMessageId: () => "m1", onError: () => GENERIC }),
  );
  return { calls, message };
}

/** JSON equality: the SDK leaves `undefined` fields where the engine leaves none. */
const plain = (v: unknown) => v === undefined ? v : JSON.parse(JSON.stringify(v));

const SCENARIOS: Array<[string, LanguageModelV4StreamPart[][]]> = [
  ["text only", [[...text("t", "Hello ", "there."), finish("stop")]]],
  ["one tool call, then the answer", [
    [...call("c1", "lookup", { word: "harmony" }), finish("tool-calls")],
    [...text("t", "Harmony means ", "concord."), finish("stop")],
  ]],
  ["two tool calls in one step, with text before them", [
    [
      ...text("a", "Let me look."),
      ...call("c1", "lookup", { word: "day" }),
      ...call("c2", "lookup", { word: "night" }),
      finish("tool-calls"),
    ],
    [...text("t", "Done."), finish("stop")],
  ]],
  ["reasoning before the answer", [[
    { type: "reasoning-start", id: "r" },
    { type: "reasoning-delta", id: "r", delta: "Think." },
    { type: "reasoning-end", id: "r" },
    ...text("t", "Answer."),
    finish("stop"),
  ]]],
  ["a call that fails validation is told to the model, which corrects it", [
    [...call("c1", "lookup", { word: "" }), finish("tool-calls")],
    [...call("c2", "lookup", { word: "fixed" }), finish("tool-calls")],
    [...text("t", "Fixed."), finish("stop")],
  ]],
  ["a tool that returns a string", [
    [...call("c1", "shout", { word: "hey" }), finish("tool-calls")],
    [...text("t", "Shouted."), finish("stop")],
  ]],
  ["a tool that throws", [
    [...call("c1", "lookup", { word: "boom" }), finish("tool-calls")],
    [...text("t", "It failed."), finish("stop")],
  ]],
  ["a model that always calls a tool answers without tools at the bound", [
    [...call("c1", "lookup", { word: "again" }), finish("tool-calls")],
  ]],
  ["an answer on the last allowed step, after tool calls", [
    [...call("c1", "lookup", { word: "a" }), finish("tool-calls")],
    [...call("c2", "lookup", { word: "b" }), finish("tool-calls")],
    [...call("c3", "lookup", { word: "c" }), finish("tool-calls")],
    [...call("c4", "lookup", { word: "d" }), finish("tool-calls")],
    [...text("t", "Four words."), finish("stop")],
  ]],
];

/** Asserts that both loops sent the model the same prompts and tools and built the same message. */
function assertSameRun(
  a: { calls: LanguageModelV4CallOptions[]; message: UIMessage },
  b: { calls: LanguageModelV4CallOptions[]; message: UIMessage },
) {
  assert.equal(a.calls.length, b.calls.length, "model calls");
  for (let i = 0; i < a.calls.length; i++) {
    assert.deepEqual(
      plain(a.calls[i].prompt),
      plain(b.calls[i].prompt),
      `prompt of call ${i + 1}`,
    );
    assert.deepEqual(plain(a.calls[i].tools), plain(b.calls[i].tools), `tools of call ${i + 1}`);
    assert.deepEqual(a.calls[i].toolChoice, b.calls[i].toolChoice, `toolChoice of call ${i + 1}`);
    assert.equal(a.calls[i].maxOutputTokens, MAX_OUTPUT_TOKENS, `maxOutputTokens of call ${i + 1}`);
    assert.equal(b.calls[i].maxOutputTokens, MAX_OUTPUT_TOKENS);
  }
  assert.deepEqual(plain(a.message), plain(b.message));
}

for (const [name, script] of SCENARIOS) {
  Deno.test(`engine = SDK loop: ${name}`, async () => {
    assertSameRun(await ours(script), await sdk(script));
  });
}

Deno.test("engine = SDK loop: a model calling a tool when it may not fails the step; the tool never runs", async () => {
  // One step allowed: it is the last, so it has no tools and toolChoice "none".
  const script = [[
    ...text("t", "Let me look."),
    ...call("c1", "lookup", { word: "boom" }),
    finish("tool-calls"),
  ]];
  const engine = await ours(script, { maxSteps: 1 }, { disobedient: true });
  assertSameRun(engine, await sdk(script, 1, tools, { disobedient: true }));
  assert.ok(engine.chunks.some((c) => c.type === "error"), "the step failed");
  assert.ok(!engine.chunks.some((c) => c.type.startsWith("tool-")), "no tool part was sent");
  assert.equal(engine.end.kind, "finish");
  assert.equal(engine.end.kind === "finish" && engine.end.totals.failed, true);
});

Deno.test("engine = SDK loop: a tool the provider ran itself, and a generated file", async () => {
  const script: LanguageModelV4StreamPart[][] = [[
    {
      type: "tool-call",
      toolCallId: "p1",
      toolName: "web_search",
      input: JSON.stringify({ query: "harmony" }),
      providerExecuted: true,
    },
    {
      type: "tool-result",
      toolCallId: "p1",
      toolName: "web_search",
      result: { hits: 2 },
    },
    { type: "file", mediaType: "image/png", data: { type: "data", data: "iVBORw0KGgo=" } },
    ...text("t", "Found two."),
    finish("stop"),
  ]];
  const engine = await ours(script);
  assertSameRun(engine, await sdk(script));
  assert.ok(engine.message.parts.some((p) => p.type === "file"), "the file reached the message");
});

const INTERNAL_TEXT = "Only the team reads this sentence.";

/** A site search with one public passage and one internal one (no URL, no number). */
const fakeSearch: SiteSearch = {
  search: () =>
    Promise.resolve({
      mode: "lexical",
      passages: [
        {
          n: 1,
          id: "pub#a",
          title: "Public",
          url: "/sobre/pub#a",
          lang: "en",
          text: "Everyone may read this.",
          score: 2,
          ranks: { bm25: 1, dense: null },
        },
        {
          id: "notes#b",
          title: "Notes",
          url: null,
          lang: "en",
          text: INTERNAL_TEXT,
          score: 1,
          ranks: { bm25: 2, dense: null },
        },
      ],
    }),
  passage: (id) =>
    id === "notes#b" ? { id, title: "Notes", url: null, lang: "en", text: INTERNAL_TEXT } : null,
  status: () => ({
    status: "ok",
    passages: 2,
    documents: 2,
    mode: "lexical",
    embeddingModel: null,
  }),
};

Deno.test("engine = SDK loop: the search tool's toModelOutput gives the model what the client never sees", async () => {
  const script = [
    [...call("c1", "search_site", { query: "notes" }), finish("tool-calls")],
    [...text("t", "Done."), finish("stop")],
  ];
  const searchTools = () => ({
    search_site: createSearchTool(fakeSearch, { origin: "https://site.test" }),
  });
  const a = await ours(script, { tools: searchTools() });
  const b = await sdk(script, 5, searchTools());
  assertSameRun(a, b);
  assert.ok(JSON.stringify(a.calls[1].prompt).includes(INTERNAL_TEXT), "the model gets the text");
  assert.ok(!JSON.stringify(a.message).includes(INTERNAL_TEXT), "the client does not");
  assert.ok(!JSON.stringify(a.chunks).includes(INTERNAL_TEXT), "nor does any chunk");
});

/** The site search over `fakeSearch`, as a turn builds it. */
const searchTools = () => ({
  search_site: createSearchTool(fakeSearch, { origin: "https://site.test" }),
});

/** Asserts that our first model calls are the SDK's calls after its first (the search). */
function assertSameAfterSearch(
  a: { calls: LanguageModelV4CallOptions[]; message: UIMessage },
  b: { calls: LanguageModelV4CallOptions[]; message: UIMessage },
) {
  assertSameRun(a, { calls: b.calls.slice(1), message: b.message });
}

const PREFETCH = { toolCallId: "c0", toolName: "search_site", input: { query: "notes" } };
const SEARCH_STEP = [...call("c0", "search_site", { query: "notes" }), finish("tool-calls")];

Deno.test("engine = SDK loop: a prefetched search is the step the model's own search would have been", async () => {
  const rest = [[...text("t", "Everyone [1]."), finish("stop")]];
  const a = await ours(rest, { tools: searchTools(), prefetch: PREFETCH });
  const b = await sdk([SEARCH_STEP, ...rest], 5, searchTools());
  assert.equal(a.calls.length, 1, "one model call instead of two");
  assertSameAfterSearch(a, b);
  assert.ok(JSON.stringify(a.calls[0].prompt).includes(INTERNAL_TEXT), "the model gets the text");
  assert.ok(!JSON.stringify(a.chunks).includes(INTERNAL_TEXT), "the client does not");
});

Deno.test("engine = SDK loop: after a prefetched search the model can search again with other words", async () => {
  const rest = [
    [...call("c1", "search_site", { query: "other words" }), finish("tool-calls")],
    [...text("t", "Both [1]."), finish("stop")],
  ];
  const a = await ours(rest, { tools: searchTools(), prefetch: PREFETCH });
  const b = await sdk([SEARCH_STEP, ...rest], 5, searchTools());
  assert.equal(a.calls.length, 2);
  assertSameAfterSearch(a, b);
  const searches = a.message.parts.filter((p) => p.type === "tool-search_site");
  assert.equal(searches.length, 2);
  assert.equal(a.calls[1].prompt.filter((m) => m.role === "tool").length, 2);
});

Deno.test("engine: a prefetch is no model call: maxSteps 1 is one tool-less call that read the result", async () => {
  const { calls, chunks, end } = await ours(
    [[...call("c1", "search_site", { query: "x" }), finish("tool-calls")]],
    { tools: searchTools(), prefetch: PREFETCH, maxSteps: 1 },
  );
  assert.equal(calls.length, 1);
  assert.equal(calls[0].toolChoice?.type, "none");
  assert.equal(calls[0].prompt.filter((m) => m.role === "tool").length, 1);
  assert.deepEqual(chunks.filter((c) => c.type === "start-step").length, 2);
  assert.equal(end.kind === "finish" && end.totals.steps, 1);
});

Deno.test("engine: a stop during the prefetched search ends the turn before any model call", async () => {
  const controller = new AbortController();
  const slow: SiteSearch = {
    ...fakeSearch,
    search: () => {
      controller.abort(new DOMException("stop", "AbortError"));
      return fakeSearch.search("x");
    },
  };
  const tools = {
    search_site: createSearchTool(slow, { origin: "https://site.test" }),
  };
  const { calls, chunks, end } = await ours([[...text("t", "No."), finish("stop")]], {
    tools,
    prefetch: PREFETCH,
    abortSignal: controller.signal,
  });
  assert.equal(calls.length, 0);
  assert.equal(end.kind, "abort");
  assert.equal(chunks.at(-1)?.type, "abort");
});

Deno.test("engine: totals add every step's usage; the bound ends the loop with a tool-less answer", async () => {
  const { end, chunks, calls } = await ours(
    [[...call("c1", "lookup", { word: "x" }), finish("tool-calls", usage(7, 3))]],
    { maxSteps: 3 },
  );
  assert.equal(calls.length, 3);
  assert.equal(end.kind, "finish");
  if (end.kind !== "finish") return;
  assert.equal(end.totals.steps, 3);
  assert.equal(end.totals.usage.inputTokens, 21);
  assert.equal(end.totals.usage.outputTokens, 9);
  assert.equal(end.totals.finishReason, "stop");
  assert.equal(end.totals.stepLimitReached, true);
  assert.deepEqual(chunks.filter((c) => c.type === "start-step").length, 3);
  assert.equal(chunks.filter((c) => c.type === "tool-output-available").length, 2);
  assert.equal(chunks.at(-1)?.type, "finish");
  // Only the last call was tool-less and told to answer.
  assert.deepEqual(calls.map((c) => [(c.tools?.length ?? 0) > 0, c.toolChoice?.type]), [
    [true, "auto"],
    [true, "auto"],
    [false, "none"],
  ]);
  const system = (i: number) => calls[i].prompt.find((m) => m.role === "system")?.content;
  assert.equal(system(0), "Be brief.");
  assert.equal(system(2), withStepLimitInstruction("Be brief."));
});

Deno.test("engine: maxSteps 2 with a model that always searches runs the tool once and ends with text", async () => {
  let executed = 0;
  const search = tool({
    description: "Searches the site.",
    inputSchema: z.object({ query: z.string() }),
    execute: ({ query }) => {
      executed++;
      return { passages: [`about ${query}`] };
    },
  });
  const { end, message } = await ours(
    [[...call("c1", "search", { query: "data" }), finish("tool-calls")]],
    { maxSteps: 2, tools: { search } },
  );
  assert.equal(executed, 1);
  assert.equal(end.kind, "finish");
  assert.equal(end.kind === "finish" && end.totals.stepLimitReached, true);
  const last = message.parts.at(-1);
  assert.equal(last?.type, "text");
  assert.equal(last?.type === "text" && last.text, TOOLLESS_ANSWER);
});

Deno.test("engine: an answer before the bound is no step limit", async () => {
  const { end, calls } = await ours([[...text("t", "Hi."), finish("stop")]], { maxSteps: 2 });
  assert.equal(calls.length, 1);
  assert.equal(calls[0].toolChoice?.type, "auto");
  assert.equal(end.kind === "finish" && end.totals.stepLimitReached, false);
});

Deno.test("engine: maxOutputTokens defaults to 4096 on every call", async () => {
  const { calls } = await ours(
    [[...call("c1", "lookup", { word: "x" }), finish("tool-calls")], [
      ...text("t", "Ok."),
      finish("stop"),
    ]],
    { maxOutputTokens: undefined },
  );
  assert.deepEqual(calls.map((c) => c.maxOutputTokens), [4096, 4096]);
});

Deno.test("engine: start and finish carry the metadata the caller gives", async () => {
  const { chunks } = await ours([[...text("t", "Hi."), finish("stop")]], {
    startMetadata: { model: "test" },
    finishMetadata: ({ usage, steps }) => ({ tokens: usage.totalTokens ?? null, steps }),
  });
  assert.deepEqual(chunks[0], {
    type: "start",
    messageId: "m1",
    messageMetadata: { model: "test" },
  });
  assert.deepEqual(chunks.at(-1), {
    type: "finish",
    finishReason: "stop",
    messageMetadata: { tokens: 15, steps: 1 },
  });
});

Deno.test("engine: an abort mid-answer ends with `abort`, no `finish`, and the text so far", async () => {
  const { model } = scriptedModel(
    [[...text("t", "one ", "two ", "three ", "four ", "five "), finish("stop")]],
    { paceMs: 5 },
  );
  const abort = new AbortController();
  const chunks: UIMessageChunk[] = [];
  const end = await runTurn({
    model,
    instructions: "",
    messages: MESSAGES,
    tools,
    maxSteps: 5,
    abortSignal: abort.signal,
    messageId: "m1",
    errorText: () => GENERIC,
  }, (c) => {
    chunks.push(c);
    if (c.type === "text-delta" && c.delta === "two ") abort.abort();
  });
  assert.equal(end.kind, "abort");
  assert.equal(chunks.at(-1)?.type, "abort");
  assert.ok(!chunks.some((c) => c.type === "finish" || c.type === "error"));
  const message = await lastMessage(chunksStream(chunks));
  assert.deepEqual(message.parts.map((p) => p.type === "text" ? p.text : p.type), [
    "step-start",
    "one two ",
  ]);
});

Deno.test("engine: a model that throws before streaming gives one error chunk and no finish", async () => {
  const failing: LanguageModelV4 = {
    ...scriptedModel([[]]).model,
    doStream() {
      throw new Error("upstream said no");
    },
  };
  const chunks: UIMessageChunk[] = [];
  const seen: unknown[] = [];
  const end = await runTurn({
    model: failing,
    instructions: "",
    messages: MESSAGES,
    tools,
    maxSteps: 5,
    abortSignal: new AbortController().signal,
    messageId: "m1",
    errorText: (error) => {
      seen.push(error);
      return GENERIC;
    },
  }, (c) => chunks.push(c));
  assert.equal(end.kind, "error");
  assert.deepEqual(chunks.map((c) => c.type), ["start", "start-step", "error"]);
  assert.deepEqual(chunks.at(-1), { type: "error", errorText: GENERIC });
  assert.match(String(seen[0]), /upstream said no/);
});

Deno.test("engine: an error part mid-stream is one error chunk; the text before it stays; no next step", async () => {
  const { chunks, calls, end } = await ours([[
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "Partial" },
    { type: "error", error: new Error("quota") },
    finish("stop"),
  ]]);
  assert.equal(calls.length, 1);
  assert.equal(end.kind, "finish");
  // Like the SDK's loop the turn finishes, but the caller learns the answer is cut.
  assert.equal(end.kind === "finish" && end.totals.failed, true);
  assert.equal(chunks.filter((c) => c.type === "error").length, 1);
  const message = await lastMessage(chunksStream(chunks));
  assert.ok(message.parts.some((p) => p.type === "text" && p.text === "Partial"));
});

Deno.test("engine: a tool that sets needsApproval never runs unapproved, even without toolApproval", async () => {
  const { model, calls } = scriptedModel([[
    ...call("c1", "pay", { word: "x" }),
    finish("tool-calls"),
  ]]);
  let ran = false;
  const pay = tool({
    description: "Pays.",
    inputSchema: z.object({ word: z.string() }),
    needsApproval: true,
    execute: () => {
      ran = true;
      return "paid";
    },
  });
  const chunks: UIMessageChunk[] = [];
  const end = await runTurn({
    model,
    instructions: "",
    messages: MESSAGES,
    tools: { pay },
    maxSteps: 5,
    abortSignal: new AbortController().signal,
    messageId: "m1",
    errorText: () => GENERIC,
    // Says "run at once": the tool's own needsApproval still wins.
    toolApproval: () => Promise.resolve(null),
  }, (c) => chunks.push(c));
  assert.equal(calls.length, 1);
  assert.equal(ran, false);
  assert.equal(end.kind === "finish" && end.totals.awaitingApproval, true);
  const request = chunks.find((c) => c.type === "tool-approval-request");
  assert.ok(request?.type === "tool-approval-request");
  assert.match(request.approvalId, /^apr_[A-Za-z0-9_-]{20}$/);
  assert.equal("approvalDescriptor" in request, false);
});

for (
  const [how, hook] of [
    ["refuses", () => Promise.resolve({ refused: new Error("No request: bad argument.") })],
    ["throws on the input", () => Promise.reject(new URIError("No request: bad argument."))],
  ] as const
) {
  Deno.test(`engine: a toolApproval that ${how} fails that call alone; the turn goes on`, async () => {
    const { model, calls } = scriptedModel([
      [
        ...call("c1", "pay", { word: "x" }),
        ...call("c2", "shout", { word: "hi" }),
        finish("tool-calls"),
      ],
      [...text("t", "Done."), finish("stop")],
    ]);
    let ran = false;
    const pay = tool({
      description: "Pays.",
      inputSchema: z.object({ word: z.string() }),
      needsApproval: true,
      execute: () => {
        ran = true;
        return "paid";
      },
    });
    const chunks: UIMessageChunk[] = [];
    const end = await runTurn({
      model,
      instructions: "",
      messages: MESSAGES,
      tools: { pay, shout: tools.shout },
      maxSteps: 5,
      abortSignal: new AbortController().signal,
      messageId: "m1",
      errorText: () => GENERIC,
      toolApproval: ({ toolName }) => toolName === "pay" ? hook() : Promise.resolve(null),
    }, (c) => chunks.push(c));
    assert.equal(ran, false, "the refused call never runs");
    assert.equal(end.kind, "finish");
    assert.equal(end.kind === "finish" && end.totals.awaitingApproval, false);
    assert.equal(chunks.some((c) => c.type === "tool-approval-request"), false);
    assert.deepEqual(
      chunks.find((c) => c.type === "tool-output-error"),
      { type: "tool-output-error", toolCallId: "c1", errorText: GENERIC },
    );
    // The next call reads the refusal and the other call's result.
    assert.equal(calls.length, 2);
    const results = JSON.stringify(calls[1].prompt.at(-1));
    assert.match(results, /No request: bad argument\./);
    assert.match(results, /"HI"/);
    const message = await lastMessage(chunksStream(chunks));
    assert.ok(message.parts.some((p) => p.type === "text" && p.text === "Done."));
  });
}

/** A real provider adapter (OpenAI-compatible) over a loopback server, with 200 ms deadlines. */
async function turnAgainst(
  server: { url: string; waitForClose(index: number): Promise<unknown>; close(): Promise<void> },
) {
  const abort = new AbortController();
  // Bound: without deadlines the turn would wait forever; abort so the server can close.
  const bound = setTimeout(() => abort.abort(), 3_000);
  try {
    const registry = createModelRegistry({
      env: { CEREBRAS_API_KEY: "k", CEREBRAS_BASE_URL: `${server.url}/v1` },
      deadlines: { firstByteMs: 200, idleMs: 200 },
    });
    const chunks: UIMessageChunk[] = [];
    const seen: unknown[] = [];
    const end = await runTurn({
      model: registry.get("cerebras/gpt-oss-120b"),
      instructions: "",
      messages: MESSAGES,
      tools,
      maxSteps: 5,
      abortSignal: abort.signal,
      messageId: "m1",
      errorText: (error) => {
        seen.push(error);
        return GENERIC;
      },
    }, (c) => chunks.push(c));
    const message = await lastMessage(chunksStream(chunks));
    // The provider's connection was closed.
    await server.waitForClose(0);
    return { end, chunks, seen, message };
  } finally {
    clearTimeout(bound);
    await server.close();
  }
}

Deno.test("engine: a provider stalling after two tokens ends the turn with an error; the text stays", async () => {
  const { end, chunks, seen, message } = await turnAgainst(startReplayServer([{
    body: [
      'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}\n\n',
      'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"lo"}}]}\n\n',
    ],
    stallAfterChunks: 2,
  }]));
  assert.equal(end.kind, "error");
  assert.equal(findModelDeadlineError(end.kind === "error" && end.error)?.kind, "idle");
  assert.deepEqual(chunks.filter((c) => c.type === "error"), [
    { type: "error", errorText: GENERIC },
  ]);
  assert.equal(chunks.at(-1)?.type, "error");
  assert.ok(!chunks.some((c) => c.type === "finish"));
  assert.equal(seen.length, 1);
  assert.deepEqual(
    message.parts.flatMap((p) => p.type === "text" ? [p.text] : []),
    ["Hello"],
  );
});

Deno.test("engine: a provider that never answers ends the turn with an error chunk", async () => {
  const { end, chunks } = await turnAgainst(startSilentServer());
  assert.equal(end.kind, "error");
  assert.equal(findModelDeadlineError(end.kind === "error" && end.error)?.kind, "first-byte");
  assert.deepEqual(chunks.map((c) => c.type), ["start", "start-step", "error"]);
});

// ---------------------------------------------------------------------------
// Approvals: the engine against streamText with `toolApproval`, over two turns
// (the request, then the continuation from the visitor's answers).

type Script = LanguageModelV4StreamPart[][];

/** The tools of the approval scenarios; `pay` waits for the visitor, and logs what it paid. */
function approvalTools(paid: string[]) {
  return {
    ...tools,
    pay: tool({
      description: "Pays for a word.",
      inputSchema: z.object({ word: z.string() }),
      execute: ({ word }) => {
        paid.push(word);
        return { paid: word };
      },
    }),
  } satisfies ToolSet;
}

const USER: UIMessage = {
  id: "u1",
  role: "user",
  parts: [{ type: "text", text: "Define two words." }],
};

/** A turn of the engine; `continued` is the assistant message it continues, if any. */
async function oursTurn(
  script: Script,
  messages: ModelMessage[],
  continued?: UIMessage,
  extra: Partial<RunTurnOptions> = {},
) {
  const { model, calls } = scriptedModel(script);
  const paid: string[] = [];
  const chunks: UIMessageChunk[] = [];
  let n = 0;
  const end = await runTurn({
    model,
    instructions: "Be brief.",
    messages,
    tools: approvalTools(paid),
    maxSteps: 5,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    abortSignal: new AbortController().signal,
    messageId: "m1",
    errorText: () => GENERIC,
    toolApproval: ({ toolName }) =>
      Promise.resolve(toolName === "pay" ? { approvalId: `apr_ours${++n}` } : null),
    ...extra,
  }, (c) => chunks.push(c));
  const message = await lastMessage(chunksStream(chunks), continued);
  return { calls, chunks, end, paid, message };
}

/** The same turn through streamText with `toolApproval: { pay: "user-approval" }`. */
async function sdkTurn(script: Script, messages: ModelMessage[], history?: UIMessage[]) {
  const { model, calls } = scriptedModel(script);
  const paid: string[] = [];
  const chunks: UIMessageChunk[] = [];
  const result = streamText({
    model,
    instructions: "Be brief.",
    messages,
    tools: approvalTools(paid),
    toolApproval: { pay: "user-approval" },
    stopWhen: isStepCount(5),
    prepareStep: ({ stepNumber }) =>
      stepNumber === 4
        ? {
          activeTools: [],
          toolChoice: "none",
          instructions: withStepLimitInstruction("Be brief."),
        }
        : undefined,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    maxRetries: 0,
  });
  const stream = result.toUIMessageStream({
    originalMessages: history,
    generateMessageId: () => "m1",
    onError: () => GENERIC,
  }).pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(c, out) {
        chunks.push(c);
        out.enqueue(c);
      },
    }),
  );
  const message = await lastMessage(stream, history?.at(-1));
  return { calls, chunks, paid, message };
}

/** The message with approval ids renamed in order of appearance (each loop makes its own). */
function normaliseIds(message: UIMessage): UIMessage {
  const copy = structuredClone(message);
  let n = 0;
  for (const part of copy.parts) {
    if ("approval" in part && part.approval) part.approval.id = `apr_${++n}`;
  }
  return copy;
}

/** The chunks with approval ids renamed in order of appearance. */
function normaliseChunkIds(chunks: UIMessageChunk[]): UIMessageChunk[] {
  let n = 0;
  return chunks.map((c) =>
    c.type === "tool-approval-request" ? { ...c, approvalId: `apr_${++n}` } : c
  );
}

/** The visitor's answers applied to the message, as the client's addToolApprovalResponse does. */
function answered(
  message: UIMessage,
  answers: Record<string, { approved: boolean; reason?: string }>,
): UIMessage {
  const copy = structuredClone(message);
  for (const part of copy.parts) {
    if (!("toolCallId" in part) || part.state !== "approval-requested") continue;
    const answer = answers[part.toolCallId];
    if (!answer) continue;
    Object.assign(part, {
      state: "approval-responded",
      approval: { ...part.approval, ...answer },
    });
  }
  return copy;
}

interface ApprovalScenario {
  first: Script;
  answers: Record<string, { approved: boolean; reason?: string }>;
  second: Script;
  /** The history goes through JSON (saved, then loaded) before the continuation. */
  reload?: boolean;
  /** Words `pay` must have paid in the first turn and in the second. */
  paid: [string[], string[]];
}

const APPROVAL_SCENARIOS: Array<[string, ApprovalScenario]> = [
  ["approve", {
    first: [[
      ...text("a", "I need your approval."),
      ...call("c1", "pay", { word: "x" }),
      finish("tool-calls"),
    ]],
    answers: { c1: { approved: true } },
    second: [[...text("t", "Paid."), finish("stop")]],
    paid: [[], ["x"]],
  }],
  ["deny, with a reason", {
    first: [[...call("c1", "pay", { word: "x" }), finish("tool-calls")]],
    answers: { c1: { approved: false, reason: "Too expensive." } },
    second: [[...text("t", "Not paid, as you wish."), finish("stop")]],
    paid: [[], []],
  }],
  ["two approvals in one step: one approved, one denied", {
    first: [[
      ...call("c1", "pay", { word: "x" }),
      ...call("c2", "pay", { word: "y" }),
      finish("tool-calls"),
    ]],
    answers: { c2: { approved: false }, c1: { approved: true } },
    second: [[...text("t", "Paid x only."), finish("stop")]],
    paid: [[], ["x"]],
  }],
  ["two approvals in one step, both approved, then another tool round", {
    first: [[
      ...call("c1", "pay", { word: "x" }),
      ...call("c2", "pay", { word: "y" }),
      finish("tool-calls"),
    ]],
    answers: { c2: { approved: true }, c1: { approved: true } },
    second: [
      [...call("c3", "lookup", { word: "paid" }), finish("tool-calls")],
      [...text("t", "Both paid."), finish("stop")],
    ],
    paid: [[], ["x", "y"]],
  }],
  ["approval after a reload", {
    first: [[...call("c1", "pay", { word: "x" }), finish("tool-calls")]],
    answers: { c1: { approved: true } },
    second: [[...text("t", "Paid."), finish("stop")]],
    reload: true,
    paid: [[], ["x"]],
  }],
  ["an approval request beside a call that runs at once", {
    first: [[
      ...call("c1", "lookup", { word: "x" }),
      ...call("c2", "pay", { word: "x" }),
      finish("tool-calls"),
    ]],
    answers: { c2: { approved: true } },
    second: [[...text("t", "Looked up and paid."), finish("stop")]],
    paid: [[], ["x"]],
  }],
];

for (const [name, scenario] of APPROVAL_SCENARIOS) {
  Deno.test(`engine = SDK loop, approvals: ${name}`, async () => {
    // The request: the step's other calls run, the turn ends, nothing unapproved runs.
    const a1 = await oursTurn(scenario.first, MESSAGES);
    const b1 = await sdkTurn(scenario.first, MESSAGES);
    assertSameRun(
      { calls: a1.calls, message: normaliseIds(a1.message) },
      { calls: b1.calls, message: normaliseIds(b1.message) },
    );
    assert.deepEqual(plain(normaliseChunkIds(a1.chunks)), plain(normaliseChunkIds(b1.chunks)));
    assert.equal(a1.calls.length, 1, "no model call after the step that asks");
    assert.deepEqual([a1.paid, b1.paid], [scenario.paid[0], scenario.paid[0]]);
    assert.equal(a1.end.kind === "finish" && a1.end.totals.awaitingApproval, true);
    // The continuation, from the same saved history (ids of the engine's first turn).
    let history = [USER, answered(a1.message, scenario.answers)];
    if (scenario.reload) history = JSON.parse(JSON.stringify(history));
    const messages = await convertToModelMessages(history);
    const a2 = await oursTurn(scenario.second, messages, history[1]);
    const b2 = await sdkTurn(scenario.second, messages, history);
    assertSameRun(a2, b2);
    assert.deepEqual(plain(a2.chunks), plain(b2.chunks));
    assert.deepEqual([a2.paid, b2.paid], [scenario.paid[1], scenario.paid[1]]);
    assert.equal(a2.end.kind === "finish" && a2.end.totals.awaitingApproval, false);
    assert.equal(a2.chunks[0].type === "start" && a2.chunks[0].messageId, "m1");
  });
}

Deno.test("engine, approvals: the descriptor rides on the request and stays on the part", async () => {
  const descriptor = { v: 1, agentId: "shop", expiresAt: 123, signature: "sig" };
  const asked: unknown[] = [];
  const { chunks, message, paid } = await oursTurn(
    [[...call("c1", "pay", { word: "x" }), finish("tool-calls")]],
    MESSAGES,
    undefined,
    {
      toolApproval: (c) => {
        asked.push(c);
        return Promise.resolve({ approvalId: "apr_d", descriptor });
      },
    },
  );
  assert.deepEqual(asked, [{ toolCallId: "c1", toolName: "pay", input: { word: "x" } }]);
  assert.deepEqual(chunks.find((c) => c.type === "tool-approval-request"), {
    type: "tool-approval-request",
    toolCallId: "c1",
    approvalId: "apr_d",
    approvalDescriptor: descriptor,
  });
  const part = message.parts.find((p) => "toolCallId" in p);
  assert.ok(part && "approval" in part);
  assert.equal(part.state, "approval-requested");
  assert.deepEqual(part.approval, { id: "apr_d", descriptor });
  assert.deepEqual(paid, []);
});

/** The first turn's message with `c1` answered, as model messages. */
async function continuationOf(
  answers: Record<string, { approved: boolean; reason?: string }>,
  edit?: (m: UIMessage) => void,
) {
  const first = await oursTurn(
    [[...call("c1", "pay", { word: "x" }), finish("tool-calls")]],
    MESSAGES,
  );
  const message = answered(first.message, answers);
  edit?.(message);
  return { message, messages: await convertToModelMessages([USER, message]) };
}

Deno.test("engine, approvals: an approved input that no longer fits the schema never runs", async () => {
  const { message, messages } = await continuationOf({ c1: { approved: true } }, (m) => {
    const part = m.parts.find((p) => "toolCallId" in p) as { input: unknown };
    part.input = { word: 42 };
  });
  const { chunks, calls, paid } = await oursTurn(
    [[...text("t", "That failed."), finish("stop")]],
    messages,
    message,
  );
  assert.deepEqual(paid, []);
  assert.deepEqual(chunks.slice(0, 2), [
    { type: "start", messageId: "m1" },
    { type: "tool-output-error", toolCallId: "c1", errorText: GENERIC },
  ]);
  const tool = calls[0].prompt.at(-1);
  assert.equal(tool?.role, "tool");
  assert.match(JSON.stringify(tool), /Invalid input for tool pay/);
});

Deno.test("engine, approvals: a response to an approval the history never asked for sends nothing", async () => {
  const { message, messages } = await continuationOf({ c1: { approved: true } });
  const last = messages.at(-1);
  assert.equal(last?.role, "tool");
  for (const part of last!.role === "tool" ? last!.content : []) {
    if (part.type === "tool-approval-response") part.approvalId = "apr_forged";
  }
  const chunks: UIMessageChunk[] = [];
  const { model, calls } = scriptedModel([[...text("t", "x"), finish("stop")]]);
  await assert.rejects(
    runTurn({
      model,
      instructions: "",
      messages,
      tools: approvalTools([]),
      maxSteps: 5,
      abortSignal: new AbortController().signal,
      messageId: message.id,
      errorText: () => GENERIC,
    }, (c) => chunks.push(c)),
    /apr_forged/,
  );
  assert.deepEqual(chunks, []);
  assert.equal(calls.length, 0);
});

Deno.test("engine, approvals: a browser-run call's output continues the turn; nothing runs on the server", async () => {
  const { message, messages } = await continuationOf({ c1: { approved: true } }, (m) => {
    // The browser ran the approved call and sent its output (lib/chat/turn/continue.ts).
    const part = m.parts.find((p) => "toolCallId" in p)!;
    Object.assign(part, { state: "output-available", output: { paid: "by the browser" } });
  });
  const { chunks, calls, paid } = await oursTurn(
    [[...text("t", "Done."), finish("stop")]],
    messages,
    message,
  );
  assert.deepEqual(paid, []);
  assert.deepEqual(chunks.slice(0, 2).map((c) => c.type), ["start", "start-step"]);
  assert.match(JSON.stringify(calls[0].prompt.at(-1)), /by the browser/);
});
