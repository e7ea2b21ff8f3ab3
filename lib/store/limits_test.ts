import assert from "node:assert/strict";
import { createRateLimiter } from "./limits.ts";
import { countingKv, readCalls } from "@/tests/support/counting_kv.ts";
import { tempKvPath } from "@/tests/support/temp.ts";

const limits = {
  visitor: { requestsPerMinute: 3, tokensPerDay: 1000 },
  ip: { requestsPerMinute: 5, tokensPerDay: 5000 },
};

Deno.test("limits: requests a minute per visitor, then a new minute", async () => {
  const kv = await Deno.openKv(":memory:");
  let t = 60_000 * 1000 + 10_000;
  const limiter = createRateLimiter(kv, limits, () => t);
  for (let i = 0; i < 3; i++) assert.equal(await limiter.check("v1", "1.1.1.1"), null);
  const refused = await limiter.check("v1", "1.1.1.1");
  assert.equal(refused?.reason, "requests");
  assert.equal(refused?.retryAfterSeconds, 50);
  t += 50_000;
  assert.equal(await limiter.check("v1", "1.1.1.1"), null);
  kv.close();
});

Deno.test("limits: the IP limit holds across visitors", async () => {
  const kv = await Deno.openKv(":memory:");
  const limiter = createRateLimiter(kv, limits, () => 5_000);
  for (let i = 0; i < 5; i++) assert.equal(await limiter.check(`v${i}`, "2.2.2.2"), null);
  assert.equal((await limiter.check("v9", "2.2.2.2"))?.reason, "requests");
  assert.equal(await limiter.check("v9", "3.3.3.3"), null);
  kv.close();
});

Deno.test("limits: tokens a day", async () => {
  const kv = await Deno.openKv(":memory:");
  let t = 86_400_000 * 100 + 3_600_000;
  const limiter = createRateLimiter(kv, limits, () => t);
  assert.equal(await limiter.check("v1", "4.4.4.4"), null);
  await limiter.addTokens("v1", "4.4.4.4", 1200);
  const refused = await limiter.check("v1", "4.4.4.4");
  assert.equal(refused?.reason, "tokens");
  assert.equal(refused?.retryAfterSeconds, 23 * 3600);
  t += 23 * 3_600_000;
  assert.equal(await limiter.check("v1", "4.4.4.4"), null, "a new day, a new budget");
  kv.close();
});

Deno.test("limits: two limiters on one KV file share the counters", async () => {
  const path = tempKvPath();
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  const a = createRateLimiter(kvA, limits, () => 1_000);
  const b = createRateLimiter(kvB, limits, () => 1_000);
  // Alternating between the two limiters, as requests alternate between isolates.
  const results = [];
  for (let i = 0; i < 6; i++) results.push(await (i % 2 ? a : b).check("shared", `9.9.9.${i}`));
  assert.equal(results.filter((r) => r === null).length, 3);
  kvA.close();
  kvB.close();
});

Deno.test("limits: a burst from one IP never fails, and never lets more than the limit through", async () => {
  const kv = await Deno.openKv(":memory:");
  const limiter = createRateLimiter(kv, {
    visitor: limits.visitor,
    ip: { requestsPerMinute: 50, tokensPerDay: 1e9 },
  }, () => 7_000);
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) => limiter.check(`burst-${i}`, "5.5.5.5")),
  );
  const passed = results.filter((r) => r === null).length;
  assert.ok(passed <= 50 && passed > 0, `${passed} passed`);
  kv.close();
});

/** Every key of a KV file with its absolute expiry (-1: never), read from the file itself. */
async function expiries(path: string): Promise<Array<{ key: string; expiresAt: number }>> {
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare("SELECT k, expiration_ms FROM kv").all() as Array<
      { k: Uint8Array; expiration_ms: number }
    >;
    return rows.map((r) => ({
      key: new TextDecoder().decode(r.k).replace(/[^\x20-\x7e]+/g, "/"),
      expiresAt: Number(r.expiration_ms),
    }));
  } finally {
    db.close();
  }
}

Deno.test("limits: every counter expires a minute after its window, also after increments", async () => {
  const path = tempKvPath();
  const kv = await Deno.openKv(path);
  // 50 s into a minute, 20 h into a day (the clock is fake: expiries are relative to it).
  const t = 86_400_000 * 200 + 20 * 3_600_000 + 50_000;
  const limiter = createRateLimiter(kv, limits, () => t);
  const before = Date.now();
  for (let i = 0; i < 3; i++) await limiter.check("v1", "6.6.6.6");
  await limiter.addTokens("v1", "6.6.6.6", 10);
  await limiter.addTokens("v1", "6.6.6.6", 10);
  const after = Date.now();
  kv.close();
  const rows = await expiries(path);
  assert.equal(rows.length, 4, JSON.stringify(rows));
  for (const { key, expiresAt } of rows) {
    assert.ok(expiresAt > 0, `${key} never expires`);
    // The request counter: 10 s left in the minute + a minute; the token counter: 4 h - 50 s + a minute.
    const left = key.includes("req") ? 10_000 + 60_000 : 4 * 3_600_000 - 50_000 + 60_000;
    assert.ok(
      expiresAt >= before + left && expiresAt <= after + left,
      `${key} expires ${expiresAt - before} ms after the test started, not ${left}`,
    );
  }
});

Deno.test("limits: concurrent increments from two KV handles on one file stay exact", async () => {
  const path = tempKvPath();
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  const wide = { requestsPerMinute: 1e6, tokensPerDay: 1e12 };
  const a = createRateLimiter(kvA, { visitor: wide, ip: wide }, () => 1_000);
  const b = createRateLimiter(kvB, { visitor: wide, ip: wide }, () => 1_000);
  await Promise.all(
    Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).addTokens("v", "7.7.7.7", 5)),
  );
  await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).check("v", "7.7.7.7")));
  const day = await kvA.get<Deno.KvU64>(["rate", "tok", "visitor", "v", 0]);
  const minute = await kvA.get<Deno.KvU64>(["rate", "req", "ip", "7.7.7.7", 0]);
  assert.equal(day.value?.value, 200n);
  assert.equal(minute.value?.value, 40n);
  kvA.close();
  kvB.close();
});

Deno.test("limits: counters this limiter wrote are not read again (a turn's tokens, the next request in the minute)", async () => {
  const counting = countingKv(await Deno.openKv(":memory:"));
  const limiter = createRateLimiter(counting.kv, limits, () => 3_000);
  assert.equal(await limiter.check("v1", "8.8.8.8"), null);
  assert.equal(readCalls(counting.counts), 1, "the first request reads its counters");
  counting.reset();
  await limiter.addTokens("v1", "8.8.8.8", 100);
  assert.equal(await limiter.check("v1", "8.8.8.8"), null);
  await limiter.addTokens("v1", "8.8.8.8", 100);
  assert.equal(readCalls(counting.counts), 0, "counted from memory, checked by the commits");
  assert.equal(counting.counts.commits, 3);
  assert.equal(
    (await counting.kv.get<Deno.KvU64>(["rate", "tok", "visitor", "v1", 0])).value?.value,
    200n,
  );
  assert.equal(
    (await counting.kv.get<Deno.KvU64>(["rate", "req", "visitor", "v1", 0])).value?.value,
    2n,
  );
  counting.kv.close();
});

Deno.test("limits: a request that comes while the last turn's tokens are being counted waits for them instead of losing a race", async () => {
  const counting = countingKv(await Deno.openKv(":memory:"));
  const limiter = createRateLimiter(counting.kv, limits, () => 3_000);
  assert.equal(await limiter.check("v1", "8.8.8.8"), null);
  counting.reset();
  // The next question arrives as the answer ends: its check reads the token counters that
  // the end of the turn is writing.
  const [, refusal] = await Promise.all([
    limiter.addTokens("v1", "8.8.8.8", 100),
    limiter.check("v1", "8.8.8.8"),
  ]);
  assert.equal(refusal, null);
  assert.equal(readCalls(counting.counts), 0, "no counter read again after a lost commit");
  assert.equal(counting.counts.commits, 2, "one commit each");
  assert.equal(
    (await counting.kv.get<Deno.KvU64>(["rate", "req", "visitor", "v1", 0])).value?.value,
    2n,
  );
  counting.kv.close();
});

Deno.test("limits: what another process counted since this limiter's last look still refuses", async () => {
  const path = tempKvPath();
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  const a = createRateLimiter(kvA, limits, () => 1_000);
  const b = createRateLimiter(kvB, limits, () => 1_000);
  // A remembers one request and 900 tokens; B then spends the rest of both budgets.
  assert.equal(await a.check("v", "1.2.3.4"), null);
  await a.addTokens("v", "1.2.3.4", 900);
  await b.addTokens("v", "1.2.3.4", 200);
  assert.equal((await a.check("v", "1.2.3.4"))?.reason, "tokens", "B's tokens count in A");
  const c = createRateLimiter(
    kvA,
    { ...limits, visitor: { ...limits.visitor, tokensPerDay: 1e9 } },
    () => 1_000,
  );
  assert.equal(await c.check("w", "1.2.3.5"), null);
  assert.equal(await b.check("w", "1.2.3.5"), null);
  assert.equal(await b.check("w", "1.2.3.5"), null);
  assert.equal((await c.check("w", "1.2.3.5"))?.reason, "requests", "B's requests count in C");
  const tokens = await kvA.get<Deno.KvU64>(["rate", "tok", "visitor", "v", 0]);
  const requests = await kvA.get<Deno.KvU64>(["rate", "req", "visitor", "w", 0]);
  assert.equal(tokens.value?.value, 1100n);
  assert.equal(requests.value?.value, 3n);
  kvA.close();
  kvB.close();
});
