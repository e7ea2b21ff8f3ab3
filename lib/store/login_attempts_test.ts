import assert from "node:assert/strict";
import { clientAddress } from "@/lib/net/ip_network.ts";
import { createLoginAttempts, loginLimitFromEnv } from "./login_attempts.ts";

const limit = { perAddress: 3, perNetwork: 5, global: 8, windowMs: 60_000 };
const one = clientAddress("1.1.1.1");

Deno.test("login attempts: the window opens at the first try and ends on time", async () => {
  const kv = await Deno.openKv(":memory:");
  const attempts = createLoginAttempts(kv, limit);
  const t0 = 1_000_000;
  for (let i = 0; i < 3; i++) {
    assert.equal(await attempts.retryAfter(one, t0 + i), null);
    assert.equal((await attempts.admit(one, t0 + i)).admitted, true);
  }
  assert.equal(await attempts.retryAfter(one, t0 + 10_000), 50);
  assert.deepEqual(await attempts.admit(one, t0 + 10_000), {
    admitted: false,
    retryAfterSeconds: 50,
  });
  assert.equal(await attempts.retryAfter(clientAddress("2.2.2.2"), t0 + 10_000), null, "per IP");
  assert.equal(await attempts.retryAfter(one, t0 + 60_000), null);
  // A try after the window starts a new one at one try.
  await attempts.admit(one, t0 + 60_000);
  const entry = await kv.get<{ count: number; until: number }>([
    "rate",
    "login",
    "address",
    "1.1.1.1",
  ]);
  assert.deepEqual(entry.value, { count: 1, until: t0 + 120_000 });
  kv.close();
});

Deno.test("login attempts: a released try is given back", async () => {
  const kv = await Deno.openKv(":memory:");
  const attempts = createLoginAttempts(kv, limit);
  for (let i = 0; i < 10; i++) {
    const admission = await attempts.admit(one, 5_000);
    assert.ok(admission.admitted);
    await attempts.release(admission.ticket, 5_000);
  }
  assert.equal(await attempts.retryAfter(one, 5_000), null, "right tokens are no failures");
  kv.close();
});

Deno.test("login attempts: parallel tries are admitted exactly up to the limit", async () => {
  const kv = await Deno.openKv(":memory:");
  // Two limiters on one KV stand for two processes: their commits race for real.
  const a = createLoginAttempts(kv, limit);
  const b = createLoginAttempts(kv, limit);
  const clients = ["3.3.3.3", "3.3.3.4", "3.3.3.5"].map(clientAddress);
  const results = await Promise.all(
    Array.from({ length: 90 }, (_, i) => (i % 2 ? a : b).admit(clients[i % 3], 5_000)),
  );
  const admitted = results.filter((r) => r.admitted).length;
  assert.ok(admitted <= limit.global, `${admitted} admitted`);
  assert.ok(admitted >= 1);
  const all = await kv.get<{ count: number }>(["rate", "login", "all"]);
  assert.equal(all.value?.count, admitted, "every admitted try is counted once");
  kv.close();
});

Deno.test("login attempts: an IPv6 /64 shares one allowance", async () => {
  const kv = await Deno.openKv(":memory:");
  const attempts = createLoginAttempts(kv, limit);
  const admitted: boolean[] = [];
  for (let i = 1; i <= 8; i++) {
    admitted.push((await attempts.admit(clientAddress(`2001:db8::${i}`), 5_000)).admitted);
  }
  assert.deepEqual(admitted, [true, true, true, true, true, false, false, false]);
  const other = await attempts.admit(clientAddress("2001:db8:0:1::1"), 5_000);
  assert.equal(other.admitted, true, "another /64");
  kv.close();
});

Deno.test("loginLimitFromEnv: the global ceiling, checked", () => {
  assert.equal(loginLimitFromEnv({}).global, 100);
  assert.equal(loginLimitFromEnv({ ADMIN_LOGIN_GLOBAL_MAX_FAILURES: "40" }).global, 40);
  for (const bad of ["0", "-1", "1.5", "many"]) {
    assert.throws(
      () => loginLimitFromEnv({ ADMIN_LOGIN_GLOBAL_MAX_FAILURES: bad }),
      /ADMIN_LOGIN_GLOBAL_MAX_FAILURES is ".*": set it to a whole number/,
    );
  }
});
