import assert from "node:assert/strict";
import { createAdminSessionStore } from "./admin_sessions.ts";

Deno.test("admin sessions: a record lasts until its expiry and is gone once deleted", async () => {
  const kv = await Deno.openKv(":memory:");
  const store = createAdminSessionStore(kv);
  const now = Date.now();
  const record = { expiresAt: now + 60_000, tokenTag: "tag" };
  await store.save("id-1", record, now);
  assert.deepEqual(await store.get("id-1", now + 59_999), record);
  assert.equal(await store.get("id-1", now + 60_000), null, "expired on read, whatever KV holds");
  assert.equal(await store.get("id-2", now), null);
  await store.delete("id-1");
  assert.equal(await store.get("id-1", now), null);
  kv.close();
});
