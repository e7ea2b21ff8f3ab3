/**
 * The admin sign-in limit under attack, over loopback and through the real app handler with
 * in-memory KV: a parallel burst of wrong tokens from one address admits at most the allowed
 * number of token checks and never answers 5xx; IPv6 clients are also counted by their /64;
 * a ceiling over all addresses bounds guessing from rotating addresses.
 */
import assert from "node:assert/strict";
import { createServerApp } from "@/lib/server.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const ADMIN_TOKEN = "admin-token-limit-0123456789abcdef";
/** The default allowance of one address (lib/store/login_attempts.ts). */
const PER_ADDRESS = 10;

function form(token: string): RequestInit {
  return {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }).toString(),
  };
}

async function login(server: TestServer, token: string): Promise<Response> {
  const res = await fetch(`${server.url}/admin/login`, form(token));
  await res.body?.cancel();
  return res;
}

/** The app's handler, called as if from `hostname` (no socket: many addresses, one test). */
async function handlerApp(env: Record<string, string>) {
  const kv = await Deno.openKv(":memory:");
  const { app } = await createServerApp({ env: { ADMIN_TOKEN, ...env }, kv, requestLog: null });
  const from = async (hostname: string, path: string, init: RequestInit = {}) => {
    const info = {
      remoteAddr: { transport: "tcp" as const, hostname, port: 40_000 },
      completed: Promise.resolve(),
    };
    const res = await app(new Request(`http://127.0.0.1${path}`, init), info);
    await res.body?.cancel();
    return res;
  };
  return { from, close: () => kv.close() };
}

Deno.test("admin login: 300 parallel wrong tokens admit at most the limit, never a 5xx", async () => {
  const server = await startTestServer({ env: { ADMIN_TOKEN } });
  try {
    let wrong = 0;
    let reached!: () => void;
    const limitReached = new Promise<void>((resolve) => (reached = resolve));
    const burst = Array.from({ length: 300 }, async (_, i) => {
      const res = await login(server, `wrong-${i}`);
      if (res.status === 401 && ++wrong >= PER_ADDRESS) reached();
      return res;
    });
    // Sent while the burst is still in flight, once the limit has visibly been reached.
    const right = limitReached.then(() => login(server, ADMIN_TOKEN));
    const all = await Promise.all(burst);
    const statuses = all.map((r) => r.status);
    const count = (s: number) => statuses.filter((x) => x === s).length;
    assert.equal(statuses.filter((s) => s >= 500).length, 0, "no 5xx");
    assert.equal(count(401), PER_ADDRESS, "exactly the allowed token checks");
    assert.equal(count(429), 300 - PER_ADDRESS, "the rest refused before any check");
    for (const res of all.filter((r) => r.status === 429)) {
      assert.ok(Number(res.headers.get("retry-after")) > 0, "429 says when to retry");
    }
    const late = await right;
    assert.equal(late.status, 429, "the right token after the limit does not sign in");
    assert.equal(late.headers.getSetCookie().length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("admin login: a right token inside a parallel burst leaves the allowance exact", async () => {
  const server = await startTestServer({ env: { ADMIN_TOKEN } });
  try {
    const tokens = Array.from({ length: 200 }, (_, i) => i === 100 ? ADMIN_TOKEN : `wrong-${i}`);
    const all = await Promise.all(tokens.map((t) => login(server, t)));
    const statuses = all.map((r) => r.status);
    assert.equal(statuses.filter((s) => s >= 500).length, 0, "no 5xx");
    assert.equal(statuses.filter((s) => s === 401).length, PER_ADDRESS);
    assert.ok(statuses[100] === 303 || statuses[100] === 429, `right token: ${statuses[100]}`);
  } finally {
    await server.close();
  }
});

Deno.test("admin login: IPv6 clients are counted by their /64 as well as by address", async () => {
  const app = await handlerApp({});
  try {
    const statuses: number[] = [];
    // 30 addresses of one /64, one wrong token each: the network's allowance runs out.
    for (let i = 1; i <= 30; i++) {
      statuses.push(
        (await app.from(`2001:db8:1:2::${i.toString(16)}`, "/admin/login", form(`w${i}`))).status,
      );
    }
    const admitted = statuses.filter((s) => s === 401).length;
    assert.ok(admitted < 30, `a /64 gets a bounded allowance (${admitted} checks)`);
    assert.deepEqual(statuses.slice(admitted), Array(30 - admitted).fill(429));
    const sameNet = await app.from("2001:db8:1:2:ffff:1:2:3", "/admin/login", form(ADMIN_TOKEN));
    assert.equal(sameNet.status, 429, "another address of that /64 is refused too");
    const otherNet = await app.from("2001:db8:1:3::1", "/admin/login", form(ADMIN_TOKEN));
    assert.equal(otherNet.status, 303, "another /64 signs in");
    // One address of a fresh /64 is still held to its own allowance.
    const one: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 1; i++) {
      one.push((await app.from("2001:db8:9::7", "/admin/login", form(`x${i}`))).status);
    }
    assert.deepEqual(one, [...Array(PER_ADDRESS).fill(401), 429]);
  } finally {
    app.close();
  }
});

Deno.test("admin login: rotating addresses meet the global ceiling", async () => {
  const app = await handlerApp({ ADMIN_LOGIN_GLOBAL_MAX_FAILURES: "25" });
  try {
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i++) {
      statuses.push((await app.from(`10.0.${i}.1`, "/admin/login", form(`wrong-${i}`))).status);
    }
    assert.deepEqual(statuses, [...Array(25).fill(401), ...Array(15).fill(429)]);
    const fresh = await app.from("192.0.2.200", "/admin/login", form(ADMIN_TOKEN));
    assert.equal(fresh.status, 429, "an address never seen before waits too");
    const bearer = await app.from("192.0.2.201", "/api/usage", {
      headers: { authorization: "Bearer wrong" },
    });
    assert.equal(bearer.status, 429, "bearer tokens share the ceiling");
  } finally {
    app.close();
  }
});
