/**
 * The KV layout of chats and stream logs, pinned key by key and value by value: data written
 * by an earlier version must stay readable, so a refactor of the store may not change a key,
 * a record's fields or how a message or a batch is encoded.
 */
import assert from "node:assert/strict";
import type { UIMessage } from "ai";
import { createKvChatStore } from "./chats.ts";
import { createStreamLog } from "./stream_log.ts";

const DAY = 24 * 60 * 60 * 1000;
const utf8 = new TextEncoder();
const json = (value: unknown) => utf8.encode(JSON.stringify(value));

function msg(id: string, role: "user" | "assistant", text: string): UIMessage {
  return { id, role, parts: [{ type: "text", text }] };
}

async function dump(kv: Deno.Kv): Promise<Array<[Deno.KvKey, unknown]>> {
  const entries: Array<[Deno.KvKey, unknown]> = [];
  for await (const entry of kv.list({ prefix: [] })) entries.push([entry.key, entry.value]);
  return entries;
}

Deno.test("layout: a chat's turn, its saved answer and an edit, as stored in KV", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let t = 1_000;
    const store = createKvChatStore(kv, { retentionDays: 30, clock: () => t });
    const q1 = msg("q1", "user", "Oi");
    await store.beginTurn({
      chatId: "chat-layout1",
      visitorId: "visitor-1",
      replaceFrom: null,
      append: [q1, msg("a1", "assistant", "")],
      title: "Oi",
    });
    const a1 = msg("a1", "assistant", "Olá!");
    assert.equal(await store.replaceMessage("chat-layout1", "a1", a1), true);
    t = 2_000;
    const q2 = msg("q2", "user", "Tchau");
    const a2 = msg("a2", "assistant", "Até logo");
    // An edit of the question: seqs 0 and 1 are cut, the new turn goes to seqs 2 and 3.
    await store.beginTurn({
      chatId: "chat-layout1",
      visitorId: "visitor-1",
      replaceFrom: "q1",
      append: [q2, a2],
    });
    assert.deepEqual(await dump(kv), [
      [["chat", "chat-layout1"], {
        id: "chat-layout1",
        visitorId: "visitor-1",
        title: "Oi",
        createdAt: 1_000,
        updatedAt: 2_000,
        count: 2,
        expiresAt: 1_000 + 30 * DAY,
        nextSeq: 4,
        cuts: [[0, 2]],
      }],
      [["msg", "chat-layout1", 2, 0], json(q2)],
      [["msg", "chat-layout1", 3, 0], json(a2)],
      [["msg_id", "chat-layout1", "a2"], 3],
      [["msg_id", "chat-layout1", "q2"], 2],
      [["visitor_chat", "visitor-1", 2_000, "chat-layout1"], null],
    ]);
    assert.deepEqual(await store.loadMessages("chat-layout1"), [q2, a2]);
    await store.deleteChat("chat-layout1");
    assert.deepEqual(await dump(kv), [[["chat_deleted", "chat-layout1"], { at: 2_000 }]]);
  } finally {
    kv.close();
  }
});

Deno.test("layout: a stream's batch, end record and head, as stored in KV", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const log = createStreamLog(kv, { clock: () => 5_000, pollMs: null });
    const writer = log.open("chat-layout2", "stream-1", "visitor-2");
    await writer.heartbeat();
    assert.deepEqual(await dump(kv), [
      [["chat_stream", "chat-layout2"], {
        streamId: "stream-1",
        visitorId: "visitor-2",
        startedAt: 5_000,
        heartbeatAt: 5_000,
      }],
      [["stream_head", "stream-1"], { seq: 0, chunks: 0, heartbeatAt: 5_000, done: false }],
    ]);
    writer.append({ type: "start" });
    writer.append({ type: "text-delta", id: "t", delta: "Oi" });
    await writer.end("finished");
    const batch = '[{"type":"start"},{"type":"text-delta","id":"t","delta":"Oi"}]';
    assert.deepEqual(await dump(kv), [
      [["stream", "stream-1", 0], {
        k: "b",
        first: 0,
        count: 2,
        part: 0,
        parts: 1,
        data: utf8.encode(batch),
      }],
      [["stream", "stream-1", 1], { k: "e", total: 2, outcome: "finished", at: 5_000 }],
      [["stream_head", "stream-1"], { seq: 2, chunks: 2, heartbeatAt: 5_000, done: true }],
    ]);
  } finally {
    kv.close();
  }
});
