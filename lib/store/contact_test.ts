import assert from "node:assert/strict";
import { CONTACT_ID, createContactStore } from "./contact.ts";
import { tempKvPath } from "@/tests/support/temp.ts";

const sender = { name: "Ana", email: "ana@example.com", visitorId: "v1" };

Deno.test("contact store: save returns the record, list gives it back with its context", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createContactStore(kv, { retentionDays: 30, clock: () => Date.UTC(2026, 0, 2) });
    const context = { chatId: "chat-1", locale: "en", visitor: "h4sh" };
    const saved = await store.save({ ...sender, message: "Olá", context });
    assert.match(saved.id, CONTACT_ID);
    assert.equal(saved.receivedAt, "2026-01-02T00:00:00.000Z");
    const { messages, cursor } = await store.list();
    assert.deepEqual(messages, [saved]);
    assert.equal(messages[0].context?.chatId, "chat-1");
    assert.equal(cursor, null);
  } finally {
    kv.close();
  }
});

Deno.test("contact store: newest first, paged by cursor without gaps or repeats, also within one millisecond", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let t = 1_700_000_000_000;
    const store = createContactStore(kv, { retentionDays: 1, clock: () => t });
    const sent: string[] = [];
    for (let i = 0; i < 23; i++) {
      if (i % 3 === 0) t += 1; // several messages share a millisecond
      sent.push((await store.save({ ...sender, message: `m${i}` })).id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.list({ cursor, limit: 5 });
      assert.ok(page.messages.length <= 5);
      seen.push(...page.messages.map((m) => m.message));
      cursor = page.cursor ?? undefined;
      pages++;
    } while (cursor);
    assert.equal(pages, 5);
    assert.deepEqual(seen, Array.from({ length: 23 }, (_, i) => `m${22 - i}`));
    // Ids sort as the messages arrived.
    assert.deepEqual([...sent].sort(), sent);
  } finally {
    kv.close();
  }
});

Deno.test("contact store: a bad cursor or limit is refused", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createContactStore(kv, { retentionDays: 1 });
    await assert.rejects(store.list({ cursor: "../x" }), RangeError);
    await assert.rejects(store.list({ limit: 0 }), RangeError);
    await assert.rejects(store.list({ limit: 101 }), RangeError);
  } finally {
    kv.close();
  }
});

Deno.test("contact store: status counts the messages of the last 24 hours", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let t = 1_700_000_000_000;
    const store = createContactStore(kv, { retentionDays: 30, clock: () => t });
    assert.deepEqual(await store.status(), { accepting: true, received: 0 });
    await store.save({ ...sender, message: "old" });
    t += 20 * 3_600_000;
    await store.save({ ...sender, message: "new" });
    assert.deepEqual(await store.status(), { accepting: true, received: 2 });
    t += 5 * 3_600_000;
    assert.deepEqual(await store.status(), { accepting: true, received: 1 });
  } finally {
    kv.close();
  }
});

Deno.test("contact store: every message expires retentionDays after it arrived", async () => {
  const path = tempKvPath();
  const kv = await Deno.openKv(path);
  try {
    const store = createContactStore(kv, { retentionDays: 7 });
    const before = Date.now();
    await store.save({ ...sender, message: "a" });
    await store.save({ ...sender, message: "b" });
    const after = Date.now();
    kv.close();
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path, { readOnly: true });
    const rows = db.prepare("SELECT expiration_ms FROM kv").all() as Array<
      { expiration_ms: number }
    >;
    db.close();
    assert.equal(rows.length, 2);
    const week = 7 * 86_400_000;
    for (const { expiration_ms } of rows) {
      const at = Number(expiration_ms);
      assert.ok(at >= before + week && at <= after + week, `expires at ${at}`);
    }
  } finally {
    try {
      kv.close();
    } catch { /* already closed */ }
  }
});
