import assert from "node:assert/strict";
import type { UIMessage } from "ai";
import { createKvChatStore } from "./chats.ts";
import { ChatNotFoundError, InvalidCursorError, ReplaceTargetMissingError } from "./errors.ts";
import { encodeMessage } from "./message_slots.ts";
import type { ChatStore } from "./ports.ts";
import { countingKv, readCalls } from "@/tests/support/counting_kv.ts";
import { tempKvPath } from "@/tests/support/temp.ts";

function msg(id: string, role: "user" | "assistant", text: string): UIMessage {
  return { id, role, parts: [{ type: "text", text }] };
}

async function withKv(fn: (kv: Deno.Kv) => Promise<void>, path = ":memory:") {
  const kv = await Deno.openKv(path);
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

Deno.test("store: a turn round-trips in order, and the visitor's list is newest first", () =>
  withKv(async (kv) => {
    let t = 1_000;
    const store = createKvChatStore(kv, { retentionDays: 30, clock: () => t });
    await store.beginTurn({
      replaceFrom: null,
      chatId: "chat-aaaa1",
      visitorId: "v1",
      append: [msg("u1", "user", "a"), msg("a1", "assistant", "b")],
      title: "A",
    });
    t += 10;
    await store.beginTurn({
      replaceFrom: null,
      chatId: "chat-bbbb1",
      visitorId: "v1",
      append: [msg("u1", "user", "c")],
    });
    t += 10;
    await store.beginTurn({
      replaceFrom: null,
      chatId: "chat-aaaa1",
      visitorId: "v1",
      append: [msg("u2", "user", "d")],
    });
    assert.deepEqual((await store.loadMessages("chat-aaaa1")).map((m) => m.id), ["u1", "a1", "u2"]);
    const { chats } = await store.listChats("v1");
    assert.deepEqual(chats.map((c) => c.id), ["chat-aaaa1", "chat-bbbb1"]);
    assert.equal((await store.getChat("chat-aaaa1"))?.count, 3);
    assert.deepEqual((await store.listChats("v2")).chats, []);
  }));

Deno.test("store: listing pages with a cursor", () =>
  withKv(async (kv) => {
    let t = 1;
    const store = createKvChatStore(kv, { retentionDays: 30, clock: () => t++ });
    for (let i = 0; i < 7; i++) {
      await store.beginTurn({
        replaceFrom: null,
        chatId: `chat-page-${i}`,
        visitorId: "v",
        append: [msg("u", "user", `${i}`)],
      });
    }
    const first = await store.listChats("v", { limit: 3 });
    assert.deepEqual(first.chats.map((c) => c.id), ["chat-page-6", "chat-page-5", "chat-page-4"]);
    assert.ok(first.cursor);
    const second = await store.listChats("v", { limit: 3, cursor: first.cursor! });
    assert.deepEqual(second.chats.map((c) => c.id), ["chat-page-3", "chat-page-2", "chat-page-1"]);
    const third = await store.listChats("v", { limit: 3, cursor: second.cursor! });
    assert.deepEqual(third.chats.map((c) => c.id), ["chat-page-0"]);
    assert.equal(third.cursor, null);
  }));

Deno.test("store: a 200 KiB message is split under the value limit and reassembled", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    // Multi-byte characters make the UTF-8 size larger than the string length.
    const big = "ação é ótima — ".repeat(200 * 1024 / 16);
    const message = msg("big", "assistant", big);
    assert.ok(encodeMessage(message).length >= 4);
    for (const part of encodeMessage(message)) assert.ok(part.length <= 64 * 1024);
    await store.beginTurn({
      replaceFrom: null,
      chatId: "chat-big01",
      visitorId: "v",
      append: [msg("u", "user", "?"), message],
    });
    const [, back] = await store.loadMessages("chat-big01");
    assert.equal((back.parts[0] as { text: string }).text, big);
  }));

Deno.test("store: concurrent appends from two writers keep every message", async () => {
  const path = tempKvPath();
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  try {
    const a = createKvChatStore(kvA, { retentionDays: 30 });
    const b = createKvChatStore(kvB, { retentionDays: 30 });
    // Two tabs, each sending its messages one after another, at the same time as the other.
    const tab = async (store: typeof a, name: string) => {
      for (let i = 0; i < 10; i++) {
        await store.beginTurn({
          replaceFrom: null,
          chatId: "chat-race1",
          visitorId: "v",
          append: [msg(`${name}${i}`, "user", `${name}${i}`)],
        });
      }
    };
    await Promise.all([tab(a, "a"), tab(b, "b")]);
    const ids = (await a.loadMessages("chat-race1")).map((m) => m.id);
    assert.equal(ids.length, 20);
    assert.equal(new Set(ids).size, 20);
    // Each writer's own messages stay in the order it sent them.
    for (const w of ["a", "b"]) {
      const mine = ids.filter((id) => id.startsWith(w)).map((id) => Number(id.slice(1)));
      assert.deepEqual(mine, [...mine].sort((x, y) => x - y));
    }
    assert.equal((await a.getChat("chat-race1"))?.count, 20);
  } finally {
    kvA.close();
    kvB.close();
  }
});

Deno.test("store: a chat expires retentionDays after creation", () =>
  withKv(async (kv) => {
    let t = 1_000_000;
    const store = createKvChatStore(kv, { retentionDays: 1, clock: () => t });
    await store.beginTurn({
      replaceFrom: null,
      chatId: "chat-exp01",
      visitorId: "v",
      append: [msg("u", "user", "q")],
    });
    t += 23 * 3_600_000;
    await store.beginTurn({
      replaceFrom: null,
      chatId: "chat-exp01",
      visitorId: "v",
      append: [msg("u2", "user", "q2")],
    });
    assert.ok(await store.getChat("chat-exp01"));
    t += 2 * 3_600_000;
    assert.equal(await store.getChat("chat-exp01"), null);
    assert.deepEqual((await store.listChats("v")).chats, []);
    // The id can be used again from scratch.
    await store.beginTurn({
      replaceFrom: null,
      chatId: "chat-exp01",
      visitorId: "v",
      append: [msg("n", "user", "new")],
    });
    assert.deepEqual((await store.loadMessages("chat-exp01")).map((m) => m.id), ["n"]);
  }));

Deno.test("store: rename, delete one, delete all of a visitor", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    for (const id of ["chat-del01", "chat-del02"]) {
      await store.beginTurn({
        replaceFrom: null,
        chatId: id,
        visitorId: "v",
        append: [msg("u", "user", "q")],
      });
    }
    await store.beginTurn({
      replaceFrom: null,
      chatId: "chat-keep1",
      visitorId: "other",
      append: [msg("u", "user", "q")],
    });
    assert.equal((await store.renameChat("chat-del01", "Novo"))?.title, "Novo");
    assert.equal(await store.deleteChat("chat-del01"), true);
    assert.equal(await store.getChat("chat-del01"), null);
    assert.deepEqual(await store.loadMessages("chat-del01"), []);
    assert.equal(await store.deleteVisitorChats("v"), 1);
    assert.deepEqual((await store.listChats("v")).chats, []);
    assert.ok(await store.getChat("chat-keep1"), "another visitor's chat is untouched");
  }));

Deno.test("store: writing into another visitor's chat is refused", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    await store.beginTurn({
      replaceFrom: null,
      chatId: "chat-own01",
      visitorId: "v1",
      append: [msg("u", "user", "q")],
    });
    await assert.rejects(
      store.beginTurn({
        replaceFrom: null,
        chatId: "chat-own01",
        visitorId: "v2",
        append: [msg("x", "user", "x")],
      }),
      ChatNotFoundError,
    );
  }));

/** Every key of the KV with its value's size. */
async function allKeys(kv: Deno.Kv): Promise<Deno.KvKey[]> {
  const keys: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix: [] })) keys.push(entry.key);
  return keys;
}

/** A new question and the answer's placeholder, as the turn starts them. */
function ask(store: ChatStore, chatId: string, q: string, a: string, visitorId = "v") {
  return store.beginTurn({
    chatId,
    visitorId,
    replaceFrom: null,
    append: [msg(q, "user", `question ${q}`), msg(a, "assistant", "")],
    title: `Chat ${chatId}`,
  });
}

Deno.test("store: every page of a 300-chat list, at any page size, lists each chat once, newest first", () =>
  withKv(async (kv) => {
    let t = 1_000;
    const store = createKvChatStore(kv, { retentionDays: 30, clock: () => t++ });
    const ids = Array.from({ length: 300 }, (_, i) => `chat-list-${String(i).padStart(3, "0")}`);
    for (const id of ids) await ask(store, id, "u", "a", "many");
    await ask(store, "chat-other1", "u", "a", "someone-else");
    const newestFirst = [...ids].reverse();
    for (const limit of [7, 20, 30, 100]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const res = await store.listChats("many", { limit, cursor });
        assert.ok(res.chats.length <= limit);
        seen.push(...res.chats.map((c) => c.id));
        if (!res.cursor) break;
        cursor = res.cursor;
      }
      assert.deepEqual(seen, newestFirst, `limit ${limit}`);
    }
  }));

Deno.test("store: a cursor that is garbage or from another visitor's list is an InvalidCursorError", () =>
  withKv(async (kv) => {
    let t = 1_000;
    const store = createKvChatStore(kv, { retentionDays: 30, clock: () => t++ });
    for (const v of ["alice", "bob"]) {
      for (let i = 0; i < 3; i++) await ask(store, `chat-${v}-${i}`, "u", "a", v);
    }
    const alice = await store.listChats("alice", { limit: 1 });
    assert.ok(alice.cursor);
    await assert.rejects(store.listChats("bob", { cursor: alice.cursor! }), InvalidCursorError);
    for (const garbage of ["not a cursor", "AAAA", "%%%", btoa("[1,2,3]")]) {
      await assert.rejects(store.listChats("alice", { cursor: garbage }), InvalidCursorError);
    }
    const next = await store.listChats("alice", { limit: 5, cursor: alice.cursor! });
    assert.deepEqual(next.chats.map((c) => c.id), ["chat-alice-1", "chat-alice-0"]);
  }));

Deno.test("store: two turns on one chat, the slower ending last, keep all four messages", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    await ask(store, "chat-tabs1", "qA", "aA");
    await ask(store, "chat-tabs1", "qB", "aB");
    assert.equal(
      await store.replaceMessage("chat-tabs1", "aB", msg("aB", "assistant", "B!")),
      true,
    );
    assert.equal(
      await store.replaceMessage("chat-tabs1", "aA", msg("aA", "assistant", "A!")),
      true,
    );
    const messages = await store.loadMessages("chat-tabs1");
    assert.deepEqual(messages, [
      msg("qA", "user", "question qA"),
      msg("aA", "assistant", "A!"),
      msg("qB", "user", "question qB"),
      msg("aB", "assistant", "B!"),
    ]);
    assert.equal((await store.getChat("chat-tabs1"))?.count, 4);
  }));

Deno.test("store: turns racing from two KV handles on one file keep every message", async () => {
  const path = tempKvPath();
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  try {
    const a = createKvChatStore(kvA, { retentionDays: 30 });
    const b = createKvChatStore(kvB, { retentionDays: 30 });
    const tab = async (store: ChatStore, name: string) => {
      for (let i = 0; i < 8; i++) {
        await ask(store, "chat-race2", `q${name}${i}`, `a${name}${i}`);
        await store.replaceMessage(
          "chat-race2",
          `a${name}${i}`,
          msg(`a${name}${i}`, "assistant", "ok"),
        );
      }
    };
    await Promise.all([tab(a, "A"), tab(b, "B")]);
    const messages = await a.loadMessages("chat-race2");
    assert.equal(messages.length, 32);
    for (const m of messages) {
      if (m.role === "assistant") assert.deepEqual(m.parts, [{ type: "text", text: "ok" }]);
    }
    // Each answer right after its own question.
    for (let i = 0; i < 32; i += 2) assert.equal(messages[i + 1].id, `a${messages[i].id.slice(1)}`);
  } finally {
    kvA.close();
    kvB.close();
  }
});

Deno.test("store: an edit removes exactly the edited question and what follows; a regenerate its answer", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    for (const n of [1, 2, 3]) await ask(store, "chat-edit1", `q${n}`, `a${n}`);
    // Edit q2: same id, new text; q2, a2, q3, a3 go.
    await store.beginTurn({
      chatId: "chat-edit1",
      visitorId: "v",
      replaceFrom: "q2",
      append: [msg("q2", "user", "edited"), msg("a2b", "assistant", "")],
    });
    const ids = async () => (await store.loadMessages("chat-edit1")).map((m) => m.id);
    assert.deepEqual(await ids(), ["q1", "a1", "q2", "a2b"]);
    assert.equal((await store.loadMessages("chat-edit1"))[2].parts[0].type, "text");
    assert.equal(
      await store.replaceMessage("chat-edit1", "a3", msg("a3", "assistant", "late")),
      false,
    );
    // Regenerate a1: the placeholder only.
    const record = await store.beginTurn({
      chatId: "chat-edit1",
      visitorId: "v",
      replaceFrom: "a1",
      append: [msg("a1c", "assistant", "")],
    });
    assert.deepEqual(await ids(), ["q1", "a1c"]);
    assert.equal(record.count, 2);
    // The removed ids are gone from the index too: an edit of them is refused.
    for (const gone of ["a1", "q3", "a2b", "never"]) {
      await assert.rejects(
        store.beginTurn({ chatId: "chat-edit1", visitorId: "v", replaceFrom: gone, append: [] }),
        ReplaceTargetMissingError,
      );
    }
    // Nothing of the removed messages is left in KV.
    const msgKeys = (await allKeys(kv)).filter((k) => k[0] === "msg" || k[0] === "msg_id");
    assert.equal(msgKeys.length, 4, JSON.stringify(msgKeys));
  }));

Deno.test("store: an answer that ends after its chat was deleted does not bring it back", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    await ask(store, "chat-gone1", "q1", "a1");
    assert.equal(await store.deleteChat("chat-gone1"), true);
    assert.equal(
      await store.replaceMessage("chat-gone1", "a1", msg("a1", "assistant", "x")),
      false,
    );
    assert.equal(await store.getChat("chat-gone1"), null);
    assert.deepEqual(await store.loadMessages("chat-gone1"), []);
    assert.deepEqual((await store.listChats("v")).chats, []);
    await assert.rejects(ask(store, "chat-gone1", "q2", "a2"), ChatNotFoundError);
    await assert.rejects(ask(store, "chat-gone1", "q2", "a2", "v2"), ChatNotFoundError);
    assert.deepEqual(await allKeys(kv), [["chat_deleted", "chat-gone1"]]);
  }));

Deno.test("store: after 'delete my data', a streaming answer or a new turn writes nothing", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    await ask(store, "chat-erase1", "q1", "a1", "erased");
    await ask(store, "chat-erase2", "q1", "a1", "erased");
    await ask(store, "chat-keep2", "q1", "a1", "kept");
    assert.equal(await store.deleteVisitorChats("erased"), 2);
    assert.equal(
      await store.replaceMessage("chat-erase1", "a1", msg("a1", "assistant", "x")),
      false,
    );
    await assert.rejects(ask(store, "chat-erase3", "q", "a", "erased"), ChatNotFoundError);
    assert.deepEqual((await store.listChats("erased")).chats, []);
    assert.equal(await store.getChat("chat-erase1"), null);
    assert.ok(await store.getChat("chat-keep2"));
    const left = (await allKeys(kv)).filter((k) =>
      k.includes("chat-erase1") || k.includes("erased")
    );
    assert.deepEqual(left, [["chat_deleted", "chat-erase1"], ["visitor_erased", "erased"]]);
  }));

Deno.test("store: a 3 MiB answer is saved, rewritten and deleted, every key expiring", async () => {
  const path = tempKvPath();
  const kv = await Deno.openKv(path);
  try {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    const big = (n: number) =>
      msg("big", "assistant", `${n} ` + "três ".repeat(3 * 1024 * 1024 / 6));
    // Through beginTurn: a 3 MiB message with its question in one turn.
    await store.beginTurn({
      chatId: "chat-huge1",
      visitorId: "v",
      replaceFrom: null,
      append: [msg("q", "user", "?"), big(1)],
    });
    assert.deepEqual(await store.loadMessages("chat-huge1"), [msg("q", "user", "?"), big(1)]);
    // Through replaceMessage: the placeholder of a second turn becomes 3 MiB.
    await ask(store, "chat-huge1", "q2", "a2");
    const answer = { ...big(2), id: "a2" };
    assert.equal(await store.replaceMessage("chat-huge1", "a2", answer), true);
    const updated = await store.updateMessage("chat-huge1", "a2", (m) => ({
      ...m,
      metadata: { feedback: "up" },
    }));
    assert.deepEqual(updated, { ...answer, metadata: { feedback: "up" } });
    const back = await store.loadMessages("chat-huge1");
    assert.deepEqual(back.map((m) => m.id), ["q", "big", "q2", "a2"]);
    assert.deepEqual(back[3], { ...answer, metadata: { feedback: "up" } });
    // Replaced blobs are deleted, not left behind.
    const blobs = new Set((await allKeys(kv)).filter((k) => k[0] === "blob").map((k) => k[2]));
    assert.equal(blobs.size, 2);
    // Every key written expires (an orphan blob of a crash included).
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path, { readOnly: true });
    const never = db.prepare("SELECT count(*) AS n FROM kv WHERE expiration_ms < 0").get() as {
      n: number;
    };
    db.close();
    assert.equal(Number(never.n), 0);
    assert.equal(await store.deleteChat("chat-huge1"), true);
    assert.deepEqual(await allKeys(kv), [["chat_deleted", "chat-huge1"]]);
  } finally {
    kv.close();
  }
});

Deno.test("store: a chat saved before the id index is upgraded on its first write", () =>
  withKv(async (kv) => {
    // The old layout: dense seqs, no nextSeq, no ["msg_id", …].
    const old = [msg("q1", "user", "a"), msg("a1", "assistant", "b")];
    const expireIn = 86_400_000;
    const record = {
      id: "chat-old01",
      visitorId: "v",
      title: "Old",
      createdAt: Date.now(),
      updatedAt: Date.now(),
      count: 2,
      expiresAt: Date.now() + expireIn,
    };
    const op = kv.atomic().set(["chat", "chat-old01"], record, { expireIn });
    old.forEach((m, seq) =>
      op.set(["msg", "chat-old01", seq, 0], encodeMessage(m)[0], { expireIn })
    );
    op.set(["visitor_chat", "v", record.updatedAt, "chat-old01"], null, { expireIn });
    await op.commit();
    const store = createKvChatStore(kv, { retentionDays: 30 });
    assert.deepEqual(await store.loadMessages("chat-old01"), old);
    await store.beginTurn({
      chatId: "chat-old01",
      visitorId: "v",
      replaceFrom: "a1",
      append: [msg("a1b", "assistant", "c")],
    });
    assert.deepEqual((await store.loadMessages("chat-old01")).map((m) => m.id), ["q1", "a1b"]);
    assert.equal(await store.replaceMessage("chat-old01", "q1", msg("q1", "user", "z")), true);
    assert.equal((await store.getChat("chat-old01"))?.count, 2);
  }));

Deno.test("store: a new chat's turn and the saves of its answer read nothing but the start's checks", () =>
  withKv(async (base) => {
    const counting = countingKv(base);
    const reads = () => readCalls(counting.counts);
    const store = createKvChatStore(counting.kv, { retentionDays: 30 });
    await ask(store, "chat-fast1", "q1", "a1");
    // The start reads the chat, its tombstone and the visitor's erasure once, for its checks.
    assert.equal(reads(), 1);
    assert.equal(await store.replaceMessage("chat-fast1", "a1", msg("a1", "assistant", "A")), true);
    assert.equal(
      await store.replaceMessage("chat-fast1", "a1", msg("a1", "assistant", "AB")),
      true,
    );
    assert.equal(reads(), 1);
    // Feedback rewrites the slot: the next save sees the change and still needs no read.
    await store.updateMessage("chat-fast1", "a1", (m) => ({ ...m, metadata: { liked: true } }));
    const afterUpdate = reads();
    assert.equal(
      await store.replaceMessage("chat-fast1", "a1", { ...msg("a1", "assistant", "ABC") }),
      true,
    );
    assert.equal(reads(), afterUpdate);
    assert.deepEqual((await store.loadMessages("chat-fast1"))[1], msg("a1", "assistant", "ABC"));
  }));

Deno.test("store: a save after another turn, a rename or an edit of its chat goes through the full rewrite", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    await ask(store, "chat-fast2", "q1", "a1");
    await store.renameChat("chat-fast2", "Renamed");
    assert.equal(await store.replaceMessage("chat-fast2", "a1", msg("a1", "assistant", "A")), true);
    await ask(store, "chat-fast2", "q2", "a2");
    // An edit of q2 removes a2: its late save writes nothing.
    await store.beginTurn({
      chatId: "chat-fast2",
      visitorId: "v",
      replaceFrom: "q2",
      append: [msg("q2", "user", "edited"), msg("a2b", "assistant", "")],
    });
    assert.equal(
      await store.replaceMessage("chat-fast2", "a2", msg("a2", "assistant", "B")),
      false,
    );
    assert.deepEqual(
      (await store.loadMessages("chat-fast2")).map((m) => m.id),
      ["q1", "a1", "q2", "a2b"],
    );
    assert.equal((await store.loadMessages("chat-fast2"))[1].parts[0].type, "text");
    assert.equal((await store.getChat("chat-fast2"))?.title, "Renamed");
  }));

Deno.test("store: loadChat reads the record once with the messages; another visitor's chat, no messages", () =>
  withKv(async (base) => {
    const counting = countingKv(base);
    const reads = () => readCalls(counting.counts);
    const store = createKvChatStore(counting.kv, { retentionDays: 30 });
    await ask(store, "chat-load1", "q1", "a1", "owner");
    counting.reset();
    const own = await store.loadChat("chat-load1", { visitorId: "owner" });
    assert.equal(own.chat?.visitorId, "owner");
    assert.deepEqual(own.messages.map((m) => m.id), ["q1", "a1"]);
    // The record, the messages, the record again (an edit between them would show).
    assert.equal(reads(), 3);
    counting.reset();
    const other = await store.loadChat("chat-load1", { visitorId: "someone-else" });
    assert.equal(other.chat?.visitorId, "owner");
    assert.deepEqual(other.messages, []);
    assert.equal(reads(), 1);
    assert.deepEqual(await store.loadChat("chat-none"), { chat: null, messages: [] });
  }));

Deno.test("store: a turn's start commits against what its plan's loadChat read: one read for plan, start and save", () =>
  withKv(async (base) => {
    const counting = countingKv(base);
    const store = createKvChatStore(counting.kv, { retentionDays: 30 });
    assert.deepEqual(await store.loadChat("chat-seen1", { visitorId: "v" }), {
      chat: null,
      messages: [],
    });
    await ask(store, "chat-seen1", "q1", "a1");
    assert.equal(await store.replaceMessage("chat-seen1", "a1", msg("a1", "assistant", "A")), true);
    assert.equal(readCalls(counting.counts), 1);
    assert.deepEqual((await store.loadMessages("chat-seen1")).map((m) => m.id), ["q1", "a1"]);
  }));

Deno.test("store: a plan's read gone stale (another isolate's turn, a delete) costs a retry, never a lost message", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    const other = createKvChatStore(kv, { retentionDays: 30 });
    await ask(store, "chat-seen2", "q1", "a1");
    await store.loadChat("chat-seen2", { visitorId: "v" });
    await ask(other, "chat-seen2", "q2", "a2");
    await ask(store, "chat-seen2", "q3", "a3");
    assert.deepEqual(
      (await store.loadMessages("chat-seen2")).map((m) => m.id),
      ["q1", "a1", "q2", "a2", "q3", "a3"],
    );
    await store.loadChat("chat-seen2", { visitorId: "v" });
    assert.equal(await other.deleteChat("chat-seen2"), true);
    await assert.rejects(ask(store, "chat-seen2", "q4", "a4"), ChatNotFoundError);
    assert.equal(await store.getChat("chat-seen2"), null);
  }));
