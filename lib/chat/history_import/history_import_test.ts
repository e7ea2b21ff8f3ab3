import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { tool, validateUIMessages } from "ai";
import { z } from "zod";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { createKvChatStore } from "@/lib/store/chats.ts";
import { ImportFileError, MAX_COMMIT_BYTES, NO_RESULT_TEXT } from "./import_file.ts";
import { toolErrorText } from "./core_values.ts";
import { convertChat } from "./convert_chat.ts";
import { prepareImport, splitCommits } from "./prepare.ts";
import { writeImport } from "./write.ts";

const FIXTURE = new URL("./testdata/ai4_history.json", import.meta.url);
const VISITOR = "visitor_test_0001";
const CHAT = "chat_test_0001";

type AnyPart = Record<string, unknown> & { type: string };
const parts = (m: ChatMessage) => m.parts as unknown as AnyPart[];
const toolParts = (m: ChatMessage) => parts(m).filter((p) => p.type.startsWith("tool-"));

/** Converts one chat's messages, failing the test on any issue. */
function convert(messages: unknown[], options: { settlePending?: boolean } = {}) {
  const issues: string[] = [];
  const warnings: string[] = [];
  const result = convertChat({ id: CHAT, messages }, "chats[0]", issues, warnings, options);
  assert.deepEqual(issues, []);
  assert.ok(result);
  return { ...result, warnings };
}

/** The problems of a file that must be rejected. */
async function rejected(data: unknown, options = {}): Promise<string[]> {
  const error = await prepareImport(data, options).then(
    () => assert.fail("expected the file to be rejected"),
    (e) => e,
  );
  assert.ok(error instanceof ImportFileError, String(error));
  assert.match(error.message, /nothing was written/);
  return error.issues;
}

const call = (toolCallId: string, toolName: string, args: unknown) => ({
  type: "tool-call",
  toolCallId,
  toolName,
  args,
});
const result = (toolCallId: string, toolName: string, value: unknown, isError?: boolean) => ({
  type: "tool-result",
  toolCallId,
  toolName,
  result: value,
  ...(isError === undefined ? {} : { isError }),
});

Deno.test("a tool result finishes the call with the same toolCallId", () => {
  const { messages, stats } = convert([
    { role: "user", content: "Weather in Lisbon?" },
    { role: "assistant", content: [call("c1", "getWeather", { city: "Lisbon" })] },
    { role: "tool", content: [result("c1", "getWeather", { tempC: 21 })] },
  ]);
  assert.equal(messages.length, 2);
  assert.deepEqual(toolParts(messages[1]), [{
    type: "tool-getWeather",
    toolCallId: "c1",
    state: "output-available",
    input: { city: "Lisbon" },
    output: { tempC: 21 },
  }]);
  assert.equal(stats.toolCalls, 1);
  assert.equal(stats.matched, 1);
  assert.equal(stats.pending, 0);
});

Deno.test("results are matched by id, not by order, and parallel calls keep their own results", () => {
  const { messages } = convert([
    { role: "user", content: "Compare" },
    {
      role: "assistant",
      content: [
        call("a", "getWeather", { city: "Porto" }),
        call("b", "getWeather", { city: "Faro" }),
      ],
    },
    {
      role: "tool",
      content: [
        result("b", "getWeather", { city: "Faro" }),
        result("a", "getWeather", { city: "Porto" }),
      ],
    },
  ]);
  const [a, b] = toolParts(messages[1]);
  assert.deepEqual([a.toolCallId, a.output], ["a", { city: "Porto" }]);
  assert.deepEqual([b.toolCallId, b.output], ["b", { city: "Faro" }]);
});

Deno.test("the assistant and tool messages of one turn merge into one UI message with step-starts", () => {
  const { messages, stats } = convert([
    { role: "user", content: "Chove em SP e no Rio?" },
    {
      role: "assistant",
      content: [{ type: "text", text: "Vou ver." }, call("s1", "getWeather", { city: "SP" })],
    },
    { role: "tool", content: [result("s1", "getWeather", { rain: 0.8 })] },
    { role: "assistant", content: [call("s2", "getWeather", { city: "Rio" })] },
    { role: "tool", content: [result("s2", "getWeather", { rain: 0.2 })] },
    { role: "assistant", content: "SP: 80%. Rio: 20%." },
    { role: "user", content: "Obrigado" },
    { role: "assistant", content: [{ type: "text", text: "De nada!" }] },
  ]);
  assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
  assert.deepEqual(parts(messages[1]).map((p) => p.type), [
    "step-start",
    "text",
    "tool-getWeather",
    "step-start",
    "tool-getWeather",
    "step-start",
    "text",
  ]);
  assert.deepEqual(parts(messages[1]).at(-1), {
    type: "text",
    text: "SP: 80%. Rio: 20%.",
    state: "done",
  });
  assert.ok(toolParts(messages[1]).every((p) => p.state === "output-available"));
  assert.equal(stats.messagesIn, 8);
  assert.equal(stats.messagesOut, 4);
});

Deno.test("isError and error-shaped results become output-error; a null error is a normal result", () => {
  const { messages, stats } = convert([
    { role: "user", content: "Go" },
    {
      role: "assistant",
      content: [
        call("e1", "fetchPage", { url: "https://x.test" }),
        call("e2", "search", { q: "a" }),
        call("e3", "search", { q: "b" }),
        call("e4", "search", { q: "c" }),
        call("e5", "search", { q: "d" }),
      ],
    },
    {
      role: "tool",
      content: [
        result("e1", "fetchPage", "Request timed out", true),
        result("e2", "search", { error: { message: "index missing" } }),
        result("e3", "search", { type: "error-text", value: "quota exceeded" }),
        result("e4", "search", { error: null, data: { hits: [] } }),
        result("e5", "search", { code: 7 }, true),
      ],
    },
  ]);
  const states = toolParts(messages[1]).map((p) => [p.state, p.errorText ?? p.output]);
  assert.deepEqual(states, [
    ["output-error", "Request timed out"],
    ["output-error", "index missing"],
    ["output-error", "quota exceeded"],
    ["output-available", { error: null, data: { hits: [] } }],
    ["output-error", '{"code":7}'],
  ]);
  assert.equal(stats.matched, 5);
  assert.equal(stats.toolErrors, 4);
  assert.ok(!("output" in toolParts(messages[1])[0]), "an error part carries no output");
});

Deno.test("toolErrorText tells error shapes from results", () => {
  assert.equal(toolErrorText({ error: "x" }, undefined), "x");
  assert.equal(toolErrorText({ error: "x", data: { a: 1 } }, undefined), null);
  assert.equal(
    toolErrorText({ type: "error-json", value: { reason: "r" } }, false),
    '{"reason":"r"}',
  );
  assert.equal(toolErrorText("fine", undefined), null);
  assert.equal(toolErrorText(null, true), "null");
  assert.equal(toolErrorText({ temperature: 3 }, false), null);
});

Deno.test("a call without a result stays input-available (or is settled on request)", () => {
  const input = [
    { role: "user", content: "Leave a message for the owner" },
    {
      role: "assistant",
      content: [{ type: "text", text: "Sending." }, call("p1", "leaveMessage", { body: "hi" })],
    },
  ];
  const kept = convert(input);
  assert.deepEqual(toolParts(kept.messages[1]), [{
    type: "tool-leaveMessage",
    toolCallId: "p1",
    state: "input-available",
    input: { body: "hi" },
  }]);
  assert.equal(kept.stats.pending, 1);
  assert.match(kept.warnings.join("\n"), /p1.*no result; kept as input-available/);

  const settled = convert(input, { settlePending: true });
  assert.equal(toolParts(settled.messages[1])[0].state, "output-error");
  assert.equal(toolParts(settled.messages[1])[0].errorText, NO_RESULT_TEXT);
  assert.equal(settled.stats.pending, 1);
});

Deno.test("system messages are dropped and counted, even inside a turn", () => {
  const { messages, stats } = convert([
    { role: "system", content: "Be brief." },
    { role: "user", content: "Hi" },
    { role: "assistant", content: [call("x", "search", { q: "hi" })] },
    { role: "system", content: "Reminder: cite sources." },
    { role: "tool", content: [result("x", "search", [])] },
    { role: "assistant", content: "Hello!" },
  ]);
  assert.equal(stats.systemDropped, 2);
  assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"]);
  assert.equal(toolParts(messages[1])[0].state, "output-available");
});

Deno.test("results without a call are dropped and counted; a tool-only run makes no message", () => {
  const { messages, stats, warnings } = convert([
    { role: "user", content: "Hi" },
    { role: "tool", content: [result("ghost", "search", { ok: true })] },
    { role: "assistant", content: "Hello" },
  ]);
  assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"]);
  assert.equal(stats.orphanResults, 1);
  assert.match(warnings.join("\n"), /unknown toolCallId "ghost"/);
});

Deno.test("message ids: given ids are kept, missing ones are stable chat id + index", () => {
  const input = [
    { role: "system", content: "s" },
    { role: "user", content: "one", createdAt: "2025-01-02T03:04:05Z" },
    { id: "msg-given", role: "assistant", content: "two" },
    { role: "tool", content: [] },
    { role: "user", content: [{ type: "text", text: "three" }] },
    { role: "assistant", content: "four" },
  ];
  const first = convert(input).messages;
  assert.deepEqual(first.map((m) => m.id), [
    `${CHAT}-1`,
    "msg-given",
    `${CHAT}-4`,
    `${CHAT}-5`,
  ]);
  assert.deepEqual(convert(input).messages.map((m) => m.id), first.map((m) => m.id));
  assert.deepEqual(first[0].metadata, { createdAt: Date.parse("2025-01-02T03:04:05Z") });
  // A generated id never collides with a given one.
  const clash = convert([
    { role: "user", content: "a" },
    { id: `${CHAT}-0`, role: "assistant", content: "b" },
  ]).messages;
  assert.notEqual(clash[0].id, clash[1].id);
});

Deno.test("images and files become file parts with URLs", () => {
  const png =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  const { messages } = convert([{
    role: "user",
    content: [
      { type: "text", text: "Look" },
      { type: "image", image: png },
      { type: "image", image: "https://example.com/a.jpg" },
      { type: "image", image: { type: "Buffer", data: [0xff, 0xd8, 0xff, 0xe0] } },
      { type: "file", data: "data:application/pdf;base64,JVBERi0=", mimeType: "application/pdf" },
      { type: "file", data: "aGVsbG8=", mimeType: "text/plain", filename: "a.txt" },
    ],
  }]);
  assert.deepEqual(parts(messages[0]).slice(1), [
    { type: "file", mediaType: "image/png", url: `data:image/png;base64,${png}` },
    { type: "file", mediaType: "image/*", url: "https://example.com/a.jpg" },
    { type: "file", mediaType: "image/jpeg", url: "data:image/jpeg;base64,/9j/4A==" },
    { type: "file", mediaType: "application/pdf", url: "data:application/pdf;base64,JVBERi0=" },
    {
      type: "file",
      mediaType: "text/plain",
      url: "data:text/plain;base64,aGVsbG8=",
      filename: "a.txt",
    },
  ]);
});

Deno.test("reasoning is kept, redacted reasoning and empty text are dropped", () => {
  const { messages, stats } = convert([
    { role: "user", content: "Why?" },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "Thinking it through.", signature: "sig" },
        { type: "redacted-reasoning", data: "opaque" },
        { type: "text", text: "" },
        { type: "text", text: "Because." },
      ],
    },
  ]);
  assert.deepEqual(parts(messages[1]), [
    { type: "step-start" },
    { type: "reasoning", text: "Thinking it through.", state: "done" },
    { type: "text", text: "Because.", state: "done" },
  ]);
  assert.equal(stats.droppedParts, 2);
});

Deno.test("the fixture converts and passes validateUIMessages", async () => {
  const prepared = await prepareImport(await Deno.readTextFile(FIXTURE));
  assert.equal(prepared.visitorId, "v4import_Visitor01");
  assert.equal(prepared.chats.length, 3);
  assert.deepEqual(
    { ...prepared.totals },
    {
      chats: 3,
      messagesIn: 18,
      messagesOut: 8,
      systemDropped: 2,
      toolCalls: 6,
      matched: 5,
      toolErrors: 2,
      pending: 1,
      orphanResults: 0,
      droppedParts: 1,
    },
  );
  // A chat without a title gets one from its first question, as the app does.
  assert.match(prepared.chats[2].title ?? "", /^Esta é a captura de tela/);
  // The chat's createdAt lands on its first message when that one has none.
  assert.deepEqual(prepared.chats[1].messages[0].metadata, { createdAt: 1741352400000 });
});

Deno.test("against the app's own tools: finished foreign calls pass, a pending one needs settling", async () => {
  // The chat turn validates history with its tools ({ search_site }) before continuing a chat.
  const tools = {
    search_site: tool({ inputSchema: z.object({ query: z.string() }), execute: () => "" }),
  };
  const text = await Deno.readTextFile(FIXTURE);
  const [weather, , pending] = (await prepareImport(text)).chats;
  const checked = await validateUIMessages({ messages: structuredClone(weather.messages), tools });
  assert.ok(checked[1].parts.some((p) => p.type === "dynamic-tool"));
  await assert.rejects(
    validateUIMessages({ messages: structuredClone(pending.messages), tools }),
    /leaveMessage/,
  );
  const settled = (await prepareImport(text, { settlePending: true })).chats[2];
  await validateUIMessages({ messages: structuredClone(settled.messages), tools });
});

Deno.test("bad files are rejected with the chat and message index named", async () => {
  assert.match((await rejected("{not json"))[0], /not JSON/);
  assert.match((await rejected({ chats: "no" }))[0], /must be \{ "visitorId"/);
  assert.match((await rejected([]))[0], /no visitor/);

  const issues = await rejected({
    visitorId: VISITOR,
    chats: [
      { id: "chat_ok_000001", messages: [{ role: "user", content: "fine" }] },
      {
        id: "chat_bad_00002",
        messages: [
          { role: "user", content: "ok" },
          { role: "robot", content: "?" },
          { role: "assistant", content: [call("d", "t", {}), call("d", "t", {})] },
          { role: "tool", content: [{ type: "tool-result", toolCallId: "d", toolName: "t" }] },
          { role: "user", content: [{ type: "video", url: "x" }] },
          { role: "user", content: [{ type: "file", data: "aGk=" }] },
          { id: "m", role: "assistant", parts: [], toolInvocations: [] },
        ],
      },
      { id: "x", messages: [] },
      { id: "chat_ok_000001", messages: [{ role: "user", content: "dup" }] },
    ],
  });
  const text = issues.join("\n");
  assert.match(text, /chats\[1\] \(id "chat_bad_00002"\), messages\[1\]: "role" must be/);
  assert.match(text, /messages\[2\]: content\[1\]: toolCallId "d" was already used/);
  assert.match(text, /messages\[3\]: content\[0\]: "result" is missing/);
  assert.match(text, /messages\[4\]: content\[0\]: unknown user part type "video"/);
  assert.match(text, /messages\[5\]: content\[0\]: a file part needs "mimeType"/);
  assert.match(text, /messages\[6\]: this is an AI SDK 4 UI message/);
  assert.match(text, /chats\[2\]: "id" must be 8–64/);
  assert.match(text, /chats\[3\]: chat id "chat_ok_000001" repeats chats\[0\]/);
  assert.ok(!/chats\[0\]/.test(text.replace(/repeats chats\[0\]/, "")), "chat 0 is valid");

  assert.match(
    (await rejected({ visitorId: "short", chats: [{ id: CHAT, messages: [] }] })).join("\n"),
    /visitorId must be 16–64/,
  );
  assert.match(
    (await rejected({ visitorId: VISITOR, chats: [{ id: CHAT, messages: [] }] })).join("\n"),
    /no user or assistant message/,
  );
});

Deno.test("splitCommits keeps every batch under the commit limits, in order", () => {
  const big = "x".repeat(200 * 1024);
  const messages: ChatMessage[] = Array.from({ length: 9 }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? "assistant" : "user",
    parts: [{ type: "text", text: big }],
  }));
  const batches = splitCommits(messages);
  assert.ok(batches.length >= 3);
  assert.deepEqual(batches.flat().map((m) => m.id), messages.map((m) => m.id));
  for (const batch of batches) {
    assert.ok(JSON.stringify(batch).length <= MAX_COMMIT_BYTES);
  }
  const many: ChatMessage[] = Array.from({ length: 2000 }, (_, i) => ({
    id: `s${i}`,
    role: "user",
    parts: [{ type: "text", text: "hi" }],
  }));
  // Each message takes one part and one id-index entry: 450 fill the 900 entries of a commit.
  assert.deepEqual(splitCommits(many).map((b) => b.length), [450, 450, 450, 450, 200]);
});

Deno.test("end to end: the fixture is written to KV and loads back with the right states", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    const prepared = await prepareImport(await Deno.readTextFile(FIXTURE));
    const report = await writeImport(store, prepared);
    assert.deepEqual(report.written, ["Lx3b9QeT7mKp2Wzd", "q8RkY2vNc5TbW1Ls", "Zp0cH4sK9dFw3YeA"]);
    assert.equal(report.failed.length, 0);

    const weather = await store.loadMessages("Lx3b9QeT7mKp2Wzd") as ChatMessage[];
    assert.deepEqual(weather.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
    assert.deepEqual(
      toolParts(weather[1]).map((p) => [p.type, p.state, (p.input as { city: string }).city]),
      [
        ["tool-getWeather", "output-available", "São Paulo"],
        ["tool-getWeather", "output-available", "Rio de Janeiro"],
      ],
    );
    assert.match(String(parts(weather[1]).at(-1)?.text), /Leve guarda-chuva só em São Paulo/);
    assert.equal(parts(weather[3])[1].type, "reasoning");

    const deploy = await store.loadMessages("q8RkY2vNc5TbW1Ls") as ChatMessage[];
    assert.deepEqual(toolParts(deploy[1]).map((p) => [p.type, p.state]), [
      ["tool-searchSite", "output-available"],
      ["tool-fetchPage", "output-error"],
      ["tool-searchSite", "output-error"],
    ]);
    assert.equal(toolParts(deploy[1])[1].errorText, "Request timed out after 10000 ms");

    const pending = await store.loadMessages("Zp0cH4sK9dFw3YeA") as ChatMessage[];
    assert.equal(toolParts(pending[1])[0].state, "input-available");
    assert.deepEqual(parts(pending[0]).map((p) => p.type), ["text", "file", "file"]);

    for (const loaded of [weather, deploy, pending]) await validateUIMessages({ messages: loaded });

    const chat = await store.getChat("Lx3b9QeT7mKp2Wzd");
    assert.equal(chat?.visitorId, "v4import_Visitor01");
    assert.equal(chat?.title, "Chuva em São Paulo e no Rio");
    assert.equal(chat?.count, 4);
    const listed = await store.listChats("v4import_Visitor01");
    assert.equal(listed.chats.length, 3);

    // Importing again skips what is there; --replace writes it again, without duplicates.
    const again = await writeImport(store, prepared);
    assert.deepEqual([again.written.length, again.skipped.length], [0, 3]);
    const replaced = await writeImport(store, prepared, { replace: true });
    assert.equal(replaced.written.length, 3);
    assert.equal((await store.loadMessages("Lx3b9QeT7mKp2Wzd")).length, 4);
    // Another visitor's chat with the same id is never touched.
    const other = await writeImport(store, { ...prepared, visitorId: "someone_else_0001" }, {
      replace: true,
    });
    assert.equal(other.written.length, 0);
    assert.match(other.skipped[0].reason, /another visitor/);
  } finally {
    kv.close();
  }
});

Deno.test("end to end: a long chat is split over several commits and loads back whole", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    const long = "Uma resposta longa sobre o assistente. ".repeat(4000); // ~150 KiB
    const messages = Array.from(
      { length: 12 },
      (_, i) =>
        i % 2
          ? { role: "assistant", content: `${i}: ${long}` }
          : { role: "user", content: `Pergunta ${i}` },
    );
    const prepared = await prepareImport({
      visitorId: VISITOR,
      chats: [{ id: CHAT, messages }],
    });
    assert.ok(prepared.chats[0].commits.length >= 2);
    const report = await writeImport(store, prepared);
    assert.equal(report.commits, prepared.chats[0].commits.length);
    const loaded = await store.loadMessages(CHAT);
    assert.equal(loaded.length, 12);
    assert.deepEqual(loaded, prepared.chats[0].messages);
  } finally {
    kv.close();
  }
});

Deno.test("end to end: an invalid file writes nothing", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const data = JSON.parse(await Deno.readTextFile(FIXTURE));
    // The last chat is broken; the first two are fine but must not be written either.
    data.chats[2].messages[1].content[1].toolCallId = 42;
    await rejected(data);
    const entries = await Array.fromAsync(kv.list({ prefix: [] }));
    assert.equal(entries.length, 0);
  } finally {
    kv.close();
  }
});

Deno.test({
  name: "CLI: imports into DENO_KV_PATH, prints the summary, exits 1 on a bad file",
  permissions: { run: true, read: true, write: true, env: true },
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const script = fileURLToPath(new URL("../../../scripts/import_history.ts", import.meta.url));
      const kvPath = `${dir}/kv.sqlite`;
      const run = async (...args: string[]) => {
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", script, ...args],
          cwd: fileURLToPath(new URL("../../../", import.meta.url)),
          env: { DENO_KV_PATH: kvPath, NO_COLOR: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const dec = new TextDecoder();
        return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
      };

      const bad = `${dir}/bad.json`;
      await Deno.writeTextFile(
        bad,
        JSON.stringify({
          visitorId: VISITOR,
          chats: [{ id: CHAT, messages: [{ role: "user", content: 3 }] }],
        }),
      );
      const failed = await run(bad);
      assert.equal(failed.code, 1);
      assert.match(failed.stderr, /chats\[0\] \(id "chat_test_0001"\), messages\[0\]/);

      const ok = await run(fileURLToPath(FIXTURE));
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /3 written/);
      assert.match(ok.stdout, /matched with a result 5 \(2 errors\)/);
      assert.match(ok.stdout, /1 calls without a result/);
      assert.match(ok.stdout, /2 system dropped/);

      const kv = await Deno.openKv(kvPath);
      try {
        const store = createKvChatStore(kv, { retentionDays: 30 });
        assert.equal((await store.loadMessages("q8RkY2vNc5TbW1Ls")).length, 2);
        assert.equal(await store.getChat(CHAT), null, "the bad file wrote nothing");
      } finally {
        kv.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
