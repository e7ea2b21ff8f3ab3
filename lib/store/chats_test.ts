import assert from "node:assert/strict";
import type { UIMessage } from "ai";
import { createKvChatStore, encodeMessage } from "./chats.ts";

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
    await store.saveTurn({
      chatId: "chat-aaaa1",
      visitorId: "v1",
      append: [msg("u1", "user", "a"), msg("a1", "assistant", "b")],
      title: "A",
    });
    t += 10;
    await store.saveTurn({
      chatId: "chat-bbbb1",
      visitorId: "v1",
      append: [msg("u1", "user", "c")],
    });
    t += 10;
    await store.saveTurn({
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
      await store.saveTurn({
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
    await store.saveTurn({
      chatId: "chat-big01",
      visitorId: "v",
      append: [msg("u", "user", "?"), message],
    });
    const [, back] = await store.loadMessages("chat-big01");
    assert.equal((back.parts[0] as { text: string }).text, big);
  }));

Deno.test("store: regenerate truncates before appending", () =>
  withKv(async (kv) => {
    const store = createKvChatStore(kv, { retentionDays: 30 });
    await store.saveTurn({
      chatId: "chat-regen",
      visitorId: "v",
      append: [msg("u1", "user", "q"), msg("a1", "assistant", "old")],
    });
    await store.saveTurn({
      chatId: "chat-regen",
      visitorId: "v",
      truncateTo: 1,
      append: [msg("a2", "assistant", "new")],
    });
    assert.deepEqual((await store.loadMessages("chat-regen")).map((m) => m.id), ["u1", "a2"]);
  }));

Deno.test("store: concurrent appends from two writers keep every message", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  try {
    const a = createKvChatStore(kvA, { retentionDays: 30 });
    const b = createKvChatStore(kvB, { retentionDays: 30 });
    // Two tabs, each sending its messages one after another, at the same time as the other.
    const tab = async (store: typeof a, name: string) => {
      for (let i = 0; i < 10; i++) {
        await store.saveTurn({
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
    await Deno.remove(path).catch(() => {});
  }
});

Deno.test("store: a chat expires retentionDays after creation", () =>
  withKv(async (kv) => {
    let t = 1_000_000;
    const store = createKvChatStore(kv, { retentionDays: 1, clock: () => t });
    await store.saveTurn({ chatId: "chat-exp01", visitorId: "v", append: [msg("u", "user", "q")] });
    t += 23 * 3_600_000;
    await store.saveTurn({
      chatId: "chat-exp01",
      visitorId: "v",
      append: [msg("u2", "user", "q2")],
    });
    assert.ok(await store.getChat("chat-exp01"));
    t += 2 * 3_600_000;
    assert.equal(await store.getChat("chat-exp01"), null);
    assert.deepEqual((await store.listChats("v")).chats, []);
    // The id can be used again from scratch.
    await store.saveTurn({
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
      await store.saveTurn({ chatId: id, visitorId: "v", append: [msg("u", "user", "q")] });
    }
    await store.saveTurn({
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
    await store.saveTurn({
      chatId: "chat-own01",
      visitorId: "v1",
      append: [msg("u", "user", "q")],
    });
    await assert.rejects(
      store.saveTurn({ chatId: "chat-own01", visitorId: "v2", append: [msg("x", "user", "x")] }),
      /another visitor/,
    );
  }));
