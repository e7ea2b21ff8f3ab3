/**
 * The admin session over loopback: a random id kept in KV behind a cookie signed with
 * SESSION_SECRET, not a value anyone holding a guess of ADMIN_TOKEN could compute; sign-out
 * revokes it, it expires, and a forged cookie costs a try like a wrong token.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../support/server.ts";

const ADMIN_TOKEN = "admin-token-session-0123456789abcdef";
const SESSION_SECRET = "session-secret-for-admin-session-tests-0123456789";

async function login(server: TestServer, token = ADMIN_TOKEN): Promise<Response> {
  const res = await fetch(`${server.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }).toString(),
  });
  await res.body?.cancel();
  return res;
}

/** The `name=value` of the session cookie a right token gets. */
async function signIn(server: TestServer): Promise<string> {
  const res = await login(server);
  assert.equal(res.status, 303);
  return res.headers.getSetCookie()[0].split(";")[0];
}

async function get(server: TestServer, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { redirect: "manual", headers });
  await res.body?.cancel();
  return res;
}

/** The cookie the old scheme made: an expiry and its HMAC under a key made from the token. */
async function tokenDerivedCookie(token: string, expires: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(`admin-session:${token}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${expires}`)),
  );
  const b64 = btoa(String.fromCharCode(...mac)).replaceAll("+", "-").replaceAll("/", "_");
  return `admin=${expires}.${b64.replace(/=+$/, "")}`;
}

Deno.test("admin session: the cookie is not derivable from ADMIN_TOKEN", async () => {
  const env = { ADMIN_TOKEN, SESSION_SECRET };
  const a = await startTestServer({ env });
  const b = await startTestServer({ env });
  try {
    // What a guess of the token lets anyone compute opens nothing.
    const computed = await tokenDerivedCookie(ADMIN_TOKEN, Date.now() + 3600_000);
    assert.equal((await get(a, "/admin", { cookie: computed })).status, 303);
    const first = await signIn(a);
    // Same token and secret, but the session is not in that server's KV: the value alone
    // opens nothing.
    assert.equal((await get(b, "/admin", { cookie: first })).status, 303);
    const second = await signIn(a);
    assert.match(first, /^admin=[\w-]{43}\.[\w-]{43}$/);
    assert.notEqual(first, second, "each sign-in gets its own random session");
    assert.ok(!first.includes(ADMIN_TOKEN));
    assert.equal((await get(a, "/admin", { cookie: first })).status, 200);
    assert.equal((await get(a, "/admin", { cookie: second })).status, 200);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("admin session: sign-out revokes the session, not only the browser's copy", async () => {
  const server = await startTestServer({ env: { ADMIN_TOKEN } });
  try {
    const cookie = await signIn(server);
    const other = await signIn(server);
    assert.equal((await get(server, "/admin", { cookie })).status, 200);
    const res = await fetch(`${server.url}/admin/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url },
    });
    await res.body?.cancel();
    assert.equal(res.status, 303);
    assert.match(res.headers.getSetCookie()[0], /^admin=; .*Max-Age=0/);
    const replayed = await get(server, "/admin", { cookie });
    assert.equal(replayed.status, 303, "the old cookie is refused after sign-out");
    assert.equal(replayed.headers.get("location"), "/admin/login");
    assert.equal((await get(server, "/admin/messages", { cookie })).status, 401);
    assert.equal((await get(server, "/admin", { cookie: other })).status, 200, "other sessions");
  } finally {
    await server.close();
  }
});

Deno.test("admin session: it expires after 12 hours, whatever the cookie says", async () => {
  let now = Date.UTC(2030, 0, 1);
  const server = await startTestServer({ env: { ADMIN_TOKEN }, services: { clock: () => now } });
  try {
    const cookie = await signIn(server);
    now += 12 * 3600_000 - 1000;
    assert.equal((await get(server, "/admin", { cookie })).status, 200, "still open");
    now += 2000;
    assert.equal((await get(server, "/admin", { cookie })).status, 303, "expired");
  } finally {
    await server.close();
  }
});

Deno.test("admin session: a session of another ADMIN_TOKEN is refused", async () => {
  const kv = await Deno.openKv(":memory:");
  const env = { SESSION_SECRET };
  const before = await startTestServer({ kv, env: { ...env, ADMIN_TOKEN } });
  const cookie = await signIn(before);
  await before.close();
  const after = await startTestServer({ kv, env: { ...env, ADMIN_TOKEN: `${ADMIN_TOKEN}-new` } });
  try {
    assert.equal((await get(after, "/admin", { cookie })).status, 303);
  } finally {
    await after.close();
    kv.close();
  }
});

Deno.test("admin session: forged cookies count as wrong tokens", async () => {
  const server = await startTestServer({ env: { ADMIN_TOKEN } });
  try {
    const cookie = await signIn(server);
    const [id, sig] = cookie.slice("admin=".length).split(".");
    const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
    const forged = [`admin=${flip(id)}.${sig}`, `admin=${id}.${flip(sig)}`, "admin=x"];
    for (let i = 0; i < 10; i++) {
      const res = await get(server, "/admin", { cookie: forged[i % 3] });
      assert.equal(res.status, 303, `forged cookie ${i + 1} goes to the login form`);
    }
    const right = await login(server);
    assert.equal(right.status, 429, "ten forged cookies used up the address's tries");
    assert.equal(right.headers.getSetCookie().length, 0);
    assert.equal((await get(server, "/admin", { cookie: forged[0] })).status, 429);
    // The session opened before still works: checking it tests no guess of the token.
    assert.equal((await get(server, "/admin", { cookie })).status, 200);
  } finally {
    await server.close();
  }
});

Deno.test("admin session: /api/usage still takes the bearer token, and only it", async () => {
  const server = await startTestServer({ env: { ADMIN_TOKEN } });
  try {
    const ok = await fetch(`${server.url}/api/usage`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(ok.status, 200);
    assert.deepEqual((await ok.json()).totals, []);
    const cookie = await signIn(server);
    assert.equal((await get(server, "/api/usage", { cookie })).status, 401);
  } finally {
    await server.close();
  }
});
