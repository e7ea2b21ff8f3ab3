import assert from "node:assert/strict";
import { loginRetryAfter, recordLoginFailure } from "./login_attempts.ts";

const limit = { maxFailures: 3, windowMs: 60_000 };

Deno.test("login attempts: the window opens at the first failure and ends on time", async () => {
  const kv = await Deno.openKv(":memory:");
  const t0 = 1_000_000;
  for (let i = 0; i < 3; i++) {
    assert.equal(await loginRetryAfter(kv, "1.1.1.1", t0 + i, limit), null);
    await recordLoginFailure(kv, "1.1.1.1", t0 + i, limit);
  }
  assert.equal(await loginRetryAfter(kv, "1.1.1.1", t0 + 10_000, limit), 50);
  assert.equal(await loginRetryAfter(kv, "2.2.2.2", t0 + 10_000, limit), null, "per IP");
  assert.equal(await loginRetryAfter(kv, "1.1.1.1", t0 + 60_000, limit), null);
  // A failure after the window starts a new one at one failure.
  await recordLoginFailure(kv, "1.1.1.1", t0 + 60_000, limit);
  const entry = await kv.get<{ count: number; until: number }>(["rate", "login", "1.1.1.1"]);
  assert.deepEqual(entry.value, { count: 1, until: t0 + 120_000 });
  kv.close();
});

Deno.test("login attempts: concurrent failures are all counted", async () => {
  const kv = await Deno.openKv(":memory:");
  await Promise.all(
    Array.from({ length: 20 }, () => recordLoginFailure(kv, "3.3.3.3", 5_000, limit)),
  );
  const entry = await kv.get<{ count: number }>(["rate", "login", "3.3.3.3"]);
  assert.equal(entry.value?.count, 20);
  kv.close();
});
