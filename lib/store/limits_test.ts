import assert from "node:assert/strict";
import { createRateLimiter } from "./limits.ts";

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
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
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
  await Deno.remove(path);
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
