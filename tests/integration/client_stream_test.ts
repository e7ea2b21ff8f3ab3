/**
 * The island's chat client (lib/client/chat.ts, message_builder.ts, ui_stream.ts)
 * against the AI SDK as the oracle: the same chunk streams — real /api/chat
 * answers, a hand-written stream with every part type, and 300 random valid
 * streams — must build the same message as the SDK's `readUIMessageStream`.
 * Then the client's behaviour against the real server: stop, refusals, edit,
 * regenerate, resume.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { MessageBuilder, StreamProtocolError } from "@/lib/protocol/message_builder.ts";
import { readChunks, StreamFormatError } from "@/lib/client/ui_stream.ts";
import { Chat, type ChatFinish, ChatRequestError } from "@/lib/client/chat.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { startReplayedApp, startTestServer } from "../support/server.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  parseSseText,
  postChat,
  testConfig,
  userMessage,
  viaJson,
} from "../support/chat_client.ts";
import { toolParts } from "@/lib/client/approval.ts";
import { approvalTurn, descriptorFor, PROPOSED } from "../support/approvals.ts";

/** The SDK's message for a chunk sequence (its last snapshot). */
async function sdkMessage(chunks: UIMessageChunk[], last?: UIMessage): Promise<UIMessage> {
  let out: UIMessage | undefined;
  for await (
    const m of readUIMessageStream({
      stream: ReadableStream.from(chunks),
      message: last ? structuredClone(last) : undefined,
      terminateOnError: true,
    })
  ) out = m;
  assert.ok(out, "the SDK built a message");
  return out;
}

/** Ours: the message as last published, i.e. after the last chunk that changed it (as the SDK yields). */
function ourMessage(chunks: UIMessageChunk[], last?: UIMessage): UIMessage {
  const b = new MessageBuilder(last ? structuredClone(last) : undefined, "m_default");
  let shown: UIMessage | undefined;
  for (const c of chunks) if (b.apply(c)) shown = structuredClone(b.message);
  assert.ok(shown, "a message was published");
  return shown;
}

async function assertSameAsSdk(chunks: UIMessageChunk[], last?: UIMessage): Promise<void> {
  // Both through JSON: what KV keeps and the page renders (undefined fields dropped).
  assert.deepEqual(viaJson(ourMessage(chunks, last)), viaJson(await sdkMessage(chunks, last)));
}

/** A stream with every chunk type the protocol has. */
const EVERY_PART: UIMessageChunk[] = [
  { type: "start", messageId: "m1", messageMetadata: { model: "a", usage: { inputTokens: 1 } } },
  { type: "start-step" },
  { type: "reasoning-start", id: "r1" },
  { type: "reasoning-delta", id: "r1", delta: "Pensando " },
  { type: "reasoning-delta", id: "r1", delta: "mais." },
  { type: "reasoning-end", id: "r1", providerMetadata: { x: { y: 1 } } },
  { type: "tool-input-start", toolCallId: "t1", toolName: "search_site" },
  { type: "tool-input-delta", toolCallId: "t1", inputTextDelta: '{"query": "dad' },
  { type: "tool-input-delta", toolCallId: "t1", inputTextDelta: 'os"}' },
  {
    type: "tool-input-available",
    toolCallId: "t1",
    toolName: "search_site",
    input: { query: "dados" },
  },
  { type: "tool-output-available", toolCallId: "t1", output: { passages: [{ n: 1 }] } },
  { type: "source-url", sourceId: "1", url: "https://example.org/a", title: "A" },
  {
    type: "source-document",
    sourceId: "2",
    mediaType: "text/plain",
    title: "B",
    filename: "b.txt",
  },
  { type: "file", url: "https://example.org/f.png", mediaType: "image/png" },
  { type: "finish-step" },
  { type: "start-step" },
  { type: "tool-input-start", toolCallId: "t2", toolName: "call_api", dynamic: true },
  {
    type: "tool-input-available",
    toolCallId: "t2",
    toolName: "call_api",
    input: { a: 1 },
    dynamic: true,
  },
  { type: "tool-approval-request", toolCallId: "t2", approvalId: "ap1" },
  { type: "tool-input-start", toolCallId: "t3", toolName: "leave_message" },
  { type: "tool-input-available", toolCallId: "t3", toolName: "leave_message", input: {} },
  { type: "tool-output-error", toolCallId: "t3", errorText: "Falhou" },
  {
    type: "tool-input-error",
    toolCallId: "t4",
    toolName: "search_site",
    input: "{bad",
    errorText: "JSON",
  },
  { type: "tool-input-start", toolCallId: "t5", toolName: "search_site" },
  {
    type: "tool-input-available",
    toolCallId: "t5",
    toolName: "search_site",
    input: { query: "x" },
  },
  { type: "tool-output-denied", toolCallId: "t5" },
  { type: "data-notice", id: "n1", data: { v: 1 } },
  { type: "data-notice", id: "n1", data: { v: 2 } },
  { type: "data-progress", data: 0.5, transient: true },
  { type: "data-notice", data: { v: 3 } },
  { type: "text-start", id: "x1" },
  { type: "text-delta", id: "x1", delta: "Olá " },
  { type: "message-metadata", messageMetadata: { usage: { outputTokens: 9 }, costUsd: 0.1 } },
  { type: "text-delta", id: "x1", delta: "[1]." },
  { type: "text-end", id: "x1" },
  { type: "finish-step" },
  { type: "finish", finishReason: "stop", messageMetadata: { latencyMs: 12 } },
] as UIMessageChunk[];

Deno.test("client stream: every part type builds the message the SDK builds", async () => {
  await assertSameAsSdk(EVERY_PART);
  const m = ourMessage(EVERY_PART) as ChatMessage;
  assert.equal(m.id, "m1");
  assert.deepEqual(m.metadata, {
    model: "a",
    usage: { inputTokens: 1, outputTokens: 9 },
    costUsd: 0.1,
    latencyMs: 12,
  });
  assert.equal(messageText(m), "Olá [1].");
});

Deno.test("client stream: continuing an assistant message and a reset step match the SDK", async () => {
  const before = ourMessage(EVERY_PART.slice(0, 21));
  const rest: UIMessageChunk[] = [
    { type: "start" },
    { type: "tool-approval-response", approvalId: "ap1", approved: true },
    { type: "tool-output-available", toolCallId: "t2", output: { ok: true }, dynamic: true },
    { type: "start-step" },
    { type: "text-start", id: "q" },
    { type: "text-delta", id: "q", delta: "rascunho" },
    { type: "reset-step" },
    { type: "start-step" },
    { type: "text-start", id: "q2" },
    { type: "text-delta", id: "q2", delta: "final" },
    { type: "text-end", id: "q2" },
    { type: "finish" },
  ] as UIMessageChunk[];
  await assertSameAsSdk(rest, before);
});

Deno.test("client stream: a chunk that contradicts the stream is refused", () => {
  const b = new MessageBuilder(undefined, "m");
  assert.throws(() => b.apply({ type: "text-delta", id: "nope", delta: "x" }), StreamProtocolError);
  assert.throws(
    () => b.apply({ type: "tool-output-available", toolCallId: "nope", output: 1 }),
    StreamProtocolError,
  );
});

/** Random valid streams: actions interpreted against what is open, so every chunk is legal. */
const action = fc.oneof(
  fc.record({ k: fc.constant("text"), s: fc.string({ maxLength: 6 }) }),
  fc.record({ k: fc.constant("reasoning"), s: fc.string({ maxLength: 6 }) }),
  fc.record({ k: fc.constant("end") }),
  fc.record({ k: fc.constant("step") }),
  fc.record({ k: fc.constant("source"), n: fc.nat(9) }),
  fc.record({ k: fc.constant("meta"), v: fc.dictionary(fc.constantFrom("a", "b", "c"), fc.nat()) }),
  fc.record({ k: fc.constant("data"), id: fc.option(fc.constantFrom("d1", "d2")), v: fc.nat() }),
  fc.record({
    k: fc.constant("tool"),
    dynamic: fc.boolean(),
    q: fc.string({ maxLength: 8 }),
    cut: fc.nat(20),
    end: fc.constantFrom("output", "error", "denied", "approval", "input-error"),
  }),
);

type Action = typeof action extends fc.Arbitrary<infer T> ? T : never;

function interpret(actions: Action[]): UIMessageChunk[] {
  const out: UIMessageChunk[] = [{ type: "start", messageId: "rnd" }, { type: "start-step" }];
  const open: Array<{ id: string; kind: "text" | "reasoning" }> = [];
  let n = 0;
  for (const a of actions) {
    const id = `p${n++}`;
    switch (a.k) {
      case "text":
      case "reasoning":
        out.push(
          { type: `${a.k}-start`, id } as UIMessageChunk,
          { type: `${a.k}-delta`, id, delta: a.s } as UIMessageChunk,
        );
        open.push({ id, kind: a.k });
        break;
      case "end": {
        const p = open.shift();
        if (p) out.push({ type: `${p.kind}-end`, id: p.id } as UIMessageChunk);
        break;
      }
      case "step":
        out.push({ type: "finish-step" }, { type: "start-step" });
        break;
      case "source":
        out.push({ type: "source-url", sourceId: String(a.n), url: `https://e.org/${a.n}` });
        break;
      case "meta":
        out.push({ type: "message-metadata", messageMetadata: a.v });
        break;
      case "data":
        out.push({ type: "data-x", ...(a.id ? { id: a.id } : {}), data: a.v } as UIMessageChunk);
        break;
      case "tool": {
        const json = JSON.stringify({ query: a.q });
        const base = { toolCallId: id, toolName: "search_site", dynamic: a.dynamic };
        out.push(
          { type: "tool-input-start", ...base },
          { type: "tool-input-delta", toolCallId: id, inputTextDelta: json.slice(0, a.cut) },
          { type: "tool-input-delta", toolCallId: id, inputTextDelta: json.slice(a.cut) },
        );
        if (a.end === "input-error") {
          out.push({ type: "tool-input-error", ...base, input: json, errorText: "bad" });
          break;
        }
        out.push({ type: "tool-input-available", ...base, input: { query: a.q } });
        if (a.end === "output") {
          out.push({ type: "tool-output-available", toolCallId: id, output: a.q });
        }
        if (a.end === "error") {
          out.push({ type: "tool-output-error", toolCallId: id, errorText: a.q });
        }
        if (a.end === "denied") out.push({ type: "tool-output-denied", toolCallId: id });
        if (a.end === "approval") {
          out.push({ type: "tool-approval-request", toolCallId: id, approvalId: `a${id}` });
        }
        break;
      }
    }
  }
  for (const p of open) out.push({ type: `${p.kind}-end`, id: p.id } as UIMessageChunk);
  out.push({ type: "finish-step" }, { type: "finish", finishReason: "stop" });
  return out;
}

Deno.test("client stream: 300 random valid streams build the message the SDK builds", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(action, { maxLength: 25 }), async (actions) => {
      await assertSameAsSdk(interpret(actions));
    }),
    { numRuns: 300 },
  );
});

function body(text: string): ReadableStream<Uint8Array<ArrayBuffer>> {
  // Split at awkward places: inside "data:", inside the JSON, between \r and \n.
  const bytes = new TextEncoder().encode(text);
  const cuts = [0, 3, 7, 20, 21, bytes.length];
  return ReadableStream.from(
    cuts.slice(1).map((end, i) => bytes.slice(cuts[i], end)).filter((b) => b.length),
  );
}

async function collect(stream: ReadableStream<Uint8Array<ArrayBuffer>>): Promise<UIMessageChunk[]> {
  const out: UIMessageChunk[] = [];
  for await (const c of readChunks(stream)) out.push(c);
  return out;
}

Deno.test("client stream: the SSE reader keeps chunks split across reads, skips comments, stops at [DONE]", async () => {
  const text = ': keep-alive\r\n\r\ndata: {"type":"start"}\r\n\r\n' +
    'data: {"type":"text-start",\ndata: "id":"a"}\n\n' + // one event on two data lines
    'event: x\ndata: {"type":"text-end","id":"a"}\n\ndata: [DONE]\n\ndata: {"type":"finish"}\n\n';
  assert.deepEqual(await collect(body(text)), [
    { type: "start" },
    { type: "text-start", id: "a" },
    { type: "text-end", id: "a" },
  ]);
  await assert.rejects(collect(body('data: {"type":\n\n')), StreamFormatError);
  await assert.rejects(collect(body('data: {"kind":"x"}\n\n')), StreamFormatError);
});

Deno.test("client: the island's Chat against the real server — two turns, edit, regenerate — equals KV", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const finishes: ChatFinish<ChatMessage>[] = [];
    const chat = new Chat<ChatMessage>({
      id: newChatId(),
      api: `${server.url}/api/chat`,
      fetch: jar.fetch,
      onFinish: (f) => finishes.push(f),
    });
    await chat.sendMessage({ text: "Quais dados vocês guardam?" });
    assert.equal(chat.status, "ready", String(chat.error));
    await chat.sendMessage({ text: "Como apagar os meus dados?" });
    const saved = async () => await server.services.store.loadMessages(chat.id) as ChatMessage[];
    assert.deepEqual(viaJson(chat.messages), await saved());
    assert.equal(finishes.length, 2);
    assert.ok(finishes.every((f) => !f.isAbort && !f.isError && f.finishReason === "stop"));

    // Edit the second question: it and its answer are replaced, here and on the server.
    const second = chat.messages[2];
    await chat.sendMessage({ text: "Por quanto tempo guardam?", messageId: second.id });
    assert.equal(chat.messages.length, 4);
    assert.equal(messageText(chat.messages[2]), "Por quanto tempo guardam?");
    assert.deepEqual(viaJson(chat.messages), await saved());

    // Regenerate the last answer: a new answer id, same question.
    const oldAnswer = chat.messages[3].id;
    await chat.regenerate();
    assert.equal(chat.messages.length, 4);
    assert.notEqual(chat.messages[3].id, oldAnswer);
    assert.deepEqual(viaJson(chat.messages), await saved());

    // Nothing streams for this chat now: resuming is a no-op.
    await chat.resumeStream();
    assert.equal(chat.status, "ready");
    assert.equal(chat.messages.length, 4);
  } finally {
    await server.close();
  }
});

Deno.test("client: a refused turn is a ChatRequestError with the server's code, and the question stays", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const errors: Error[] = [];
    const chat = new Chat<ChatMessage>({
      id: newChatId(),
      api: `${server.url}/api/chat`,
      body: () => ({ model: "no/such-model" }),
      onError: (e) => errors.push(e),
    });
    await chat.sendMessage({ text: "Olá?" });
    assert.equal(chat.status, "error");
    assert.ok(chat.error instanceof ChatRequestError);
    assert.equal(chat.error.status, 400);
    assert.equal(chat.error.code, "invalid_request");
    assert.equal(errors.length, 1);
    assert.deepEqual(chat.messages.map((m) => m.role), ["user"], "the question is not lost");
  } finally {
    await server.close();
  }
});

Deno.test("client: stop ends the turn as aborted, keeps the partial answer, and the server saves it", async () => {
  const { server, close } = await startReplayedApp([{
    fixture: "openai-text.chunks.txt",
    delayMs: 30,
  }]);
  try {
    const jar = new CookieJar();
    let finish: ChatFinish<ChatMessage> | undefined;
    const chat = new Chat<ChatMessage>({
      id: newChatId(),
      api: `${server.url}/api/chat`,
      fetch: jar.fetch,
      body: () => ({ model: "openai/gpt-4.1-mini" }),
      onFinish: (f) => (finish = f),
    });
    const turn = chat.sendMessage({ text: "Conte uma história longa." });
    // Stop once some text is on screen.
    while (messageText(chat.messages[1]).length < 20) {
      assert.notEqual(chat.status, "error", String(chat.error));
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(chat.status, "streaming");
    await chat.stop();
    await turn;
    assert.equal(chat.status, "ready");
    assert.ok(finish?.isAbort, "onFinish says aborted");
    const shown = messageText(chat.messages[1]);
    assert.ok(shown.length >= 20);

    // The server saved what it had sent (at least what the client shows).
    let saved: ChatMessage[] = [];
    // The answer is saved as a placeholder when the turn starts, then as stopped.
    const stopped = () => saved[1]?.metadata?.outcome === "stopped";
    for (let i = 0; i < 100 && !stopped(); i++) {
      saved = await server.services.store.loadMessages(chat.id) as ChatMessage[];
      if (!stopped()) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(saved[1].metadata?.finishReason, "aborted");
    assert.ok(messageText(saved[1]).startsWith(shown));
  } finally {
    await close();
  }
});

Deno.test("client: a second tab follows an answer in flight with resumeStream", async () => {
  const { server, close } = await startReplayedApp([{
    fixture: "openai-text.chunks.txt",
    delayMs: 5,
  }]);
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      trigger: "submit-message",
      model: "openai/gpt-4.1-mini",
      message: userMessage("Conte uma história."),
    }, { jar });
    const first = res.text();
    const tab = new Chat<ChatMessage>({
      id,
      api: `${server.url}/api/chat`,
      fetch: jar.fetch,
      messages: [],
    });
    await tab.resumeStream();
    const sent = parseSseText(await first).chunks;
    const fromFirst = await sdkMessage(sent.filter((c) => c.type !== "error"));
    assert.equal(tab.messages.length, 1);
    assert.deepEqual(viaJson(tab.messages[0]), viaJson(fromFirst));
  } finally {
    await close();
  }
});

Deno.test("client stream: approval requests with descriptors, then the continuation after responses, match the SDK", async () => {
  const descriptor = descriptorFor(PROPOSED);
  const first = approvalTurn("m_apr", [
    { toolCallId: "t1", approvalId: "apr_1", descriptor },
    { toolCallId: "t2", approvalId: "apr_2", descriptor },
  ]);
  await assertSameAsSdk(first);
  const waiting = ourMessage(first);
  // What addToolApprovalResponse leaves on the parts before the request.
  const responded = structuredClone(waiting);
  for (const part of toolParts(responded)) {
    part.state = "approval-responded";
    part.approval = part.toolCallId === "t1"
      ? { ...part.approval!, approved: true, edited: true }
      : { ...part.approval!, approved: false, reason: "Não" };
    if (part.toolCallId === "t1") part.input = { ...PROPOSED, urgent: true };
  }
  const rest: UIMessageChunk[] = [
    { type: "start", messageId: "m_apr" },
    { type: "tool-output-available", toolCallId: "t1", output: { data: { id: 1 } } },
    { type: "tool-output-denied", toolCallId: "t2" },
    { type: "start-step" },
    { type: "text-start", id: "a" },
    { type: "text-delta", id: "a", delta: "Enviei um, o outro não." },
    { type: "text-end", id: "a" },
    { type: "finish-step" },
    { type: "finish", finishReason: "stop" },
  ];
  await assertSameAsSdk(rest, responded);
  const done = ourMessage(rest, responded);
  assert.equal(done.id, "m_apr");
  assert.deepEqual(toolParts(done).map((p) => [p.state, p.approval?.descriptor?.signature]), [
    ["output-available", "sig"],
    ["output-denied", "sig"],
  ]);
  // An error after the approval is an error part; the approval stays on it.
  const failed = ourMessage([
    { type: "start", messageId: "m_apr" },
    { type: "tool-output-error", toolCallId: "t1", errorText: "HTTP 500" },
    { type: "finish" },
  ], responded);
  assert.equal(toolParts(failed)[0].approval?.approved, true);
  await assertSameAsSdk([
    { type: "start", messageId: "m_apr" },
    { type: "tool-output-error", toolCallId: "t1", errorText: "HTTP 500" },
    { type: "finish" },
  ], responded);
});
