/**
 * The HTTP layer against hostile or sloppy clients, one step per defect: a
 * malformed cookie, the Secure cookie decided by the deployment, the CSP with a
 * per-page nonce, origin checks on data-changing routes, same-site-only language
 * redirects, capped form bodies, checked query parameters, and the admin token.
 */
import assert from "node:assert/strict";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/** One request per route of fresh.gen.ts (and the 404 page), given a chat id. */
export function everyRoute(chatId: string): { method: string; path: string; body?: string }[] {
  const json = JSON.stringify({ id: chatId, title: "t", messageId: "m", rating: "up" });
  return [
    { method: "GET", path: "/" },
    { method: "GET", path: `/c/${chatId}` },
    { method: "GET", path: `/c/${chatId}/delete` },
    { method: "POST", path: `/c/${chatId}/delete` },
    { method: "POST", path: `/c/${chatId}/rename`, body: "title=x" },
    { method: "GET", path: "/me/delete" },
    { method: "POST", path: "/me/delete" },
    { method: "GET", path: "/lang/en" },
    { method: "GET", path: "/sobre/como-funciona" },
    { method: "GET", path: "/en/about/how-it-works" },
    { method: "GET", path: "/no/such/page" },
    { method: "GET", path: "/api/chats" },
    { method: "GET", path: `/api/chats/${chatId}` },
    { method: "PATCH", path: `/api/chats/${chatId}`, body: json },
    { method: "DELETE", path: `/api/chats/${chatId}` },
    { method: "POST", path: `/api/chats/${chatId}/feedback`, body: json },
    { method: "GET", path: `/api/chat/${chatId}/stream` },
    {
      method: "POST",
      path: "/api/chat",
      body: JSON.stringify({ id: newChatId(), message: userMessage("Oi") }),
    },
    { method: "POST", path: "/api/title", body: json },
    { method: "GET", path: "/api/health" },
    { method: "GET", path: "/api/models" },
    { method: "DELETE", path: "/api/me" },
    { method: "GET", path: "/api/usage" },
    {
      method: "POST",
      path: "/api/contact",
      body: JSON.stringify({ name: "A", email: "a@example.com", message: "Oi" }),
    },
    { method: "GET", path: "/api/contact/status" },
    { method: "GET", path: "/admin/messages" },
    { method: "GET", path: "/widget" },
    { method: "GET", path: "/api/widget" },
    { method: "POST", path: "/api/visitor-token" },
  ];
}

async function newVisitorWithChat(server: TestServer): Promise<{ jar: CookieJar; id: string }> {
  const jar = new CookieJar();
  const id = newChatId();
  const res = await postChat(server.url, { id, message: userMessage("Quais dados guardam?") }, {
    jar,
  });
  assert.ok((await readSse(res)).done);
  return { jar, id };
}

Deno.test("HTTP hardening over loopback", async (t) => {
  const server = await startTestServer({
    config: testConfig({ allowedOrigins: ["https://widget.example"] }),
    env: { ADMIN_TOKEN: "admin-token-0123456789" },
  });
  const url = server.url;
  try {
    const { jar, id } = await newVisitorWithChat(server);

    await t.step("a malformed cookie is no cookie on every route, never a 5xx", async () => {
      for (const cookie of ["visitor=%zz", "lang=%zz; visitor=%", "__Host-visitor=%E0%A4%A"]) {
        for (const r of everyRoute(id)) {
          const res = await fetch(url + r.path, {
            method: r.method,
            body: r.body,
            redirect: "manual",
            headers: {
              cookie,
              "content-type": r.body?.startsWith("{")
                ? "application/json"
                : "application/x-www-form-urlencoded",
            },
          });
          await res.body?.cancel();
          assert.ok(res.status < 500, `${r.method} ${r.path} with "${cookie}": ${res.status}`);
        }
      }
    });

    await t.step("every HTML page has a CSP and every inline script its nonce", async () => {
      for (const path of ["/", `/c/${id}`, "/me/delete", "/sobre/como-funciona", "/nope"]) {
        const res = await jar.fetch(url + path);
        const html = await res.text();
        const csp = res.headers.get("content-security-policy") ?? "";
        const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
        assert.ok(nonce, `${path}: CSP with a nonce: "${csp}"`);
        assert.match(csp, /base-uri 'none'/);
        assert.match(csp, /object-src 'none'/);
        assert.match(csp, /frame-ancestors 'self'/);
        assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/);
        for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
          if (/\bsrc=/.test(tag)) continue;
          assert.ok(tag.includes(`nonce="${nonce}"`), `${path}: ${tag} carries the nonce`);
        }
      }
      const a = (await fetch(url + "/")).headers.get("content-security-policy");
      const b = (await fetch(url + "/")).headers.get("content-security-policy");
      assert.notEqual(a, b, "a fresh nonce per page");
    });

    await t.step("data-changing routes refuse a foreign origin with 403", async () => {
      const { jar: victim, id: chat } = await newVisitorWithChat(server);
      const forms = [
        { path: "/me/delete", body: "" },
        { path: `/c/${chat}/delete`, body: "" },
        { path: `/c/${chat}/rename`, body: "title=pwned" },
      ];
      const foreign: Record<string, string>[] = [
        { origin: "https://evil.example" },
        { origin: "null" },
        { "sec-fetch-site": "cross-site" },
      ];
      for (const headers of foreign) {
        for (const f of forms) {
          const res = await victim.fetch(url + f.path, {
            method: "POST",
            body: f.body,
            redirect: "manual",
            headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          });
          assert.equal(res.status, 403, `${f.path} ${JSON.stringify(headers)}`);
          assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
          assert.match(await res.text(), /403/);
        }
        const title = await victim.fetch(url + "/api/title", {
          method: "POST",
          body: JSON.stringify({ id: chat }),
          headers: { ...headers, "content-type": "application/json" },
        });
        assert.equal(title.status, 403);
        assert.equal((await title.json()).error.code, "origin_not_allowed");
      }
      // Nothing changed: the chat is still there under its title.
      const still = await victim.fetch(`${url}/api/chats/${chat}`);
      assert.equal(still.status, 200);
      assert.notEqual((await still.json()).chat.title, "pwned");
      // Same origin, an allowed origin and same-site fetch metadata still work.
      const sameOrigin: Record<string, string>[] = [{ origin: url }, {
        "sec-fetch-site": "same-origin",
      }, {}];
      for (const headers of sameOrigin) {
        const ok = await victim.fetch(`${url}/c/${chat}/rename`, {
          method: "POST",
          body: "title=Renamed",
          redirect: "manual",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        });
        assert.equal(ok.status, 303, JSON.stringify(headers));
      }
      const widget = await victim.fetch(url + "/api/title", {
        method: "POST",
        body: JSON.stringify({ id: chat }),
        headers: { origin: "https://widget.example", "content-type": "application/json" },
      });
      assert.equal(widget.status, 200);
      await widget.body?.cancel();
    });

    await t.step("/lang/:code goes back only to a path of this site", async () => {
      const table: [string | undefined, string][] = [
        [undefined, "/"],
        [`${url}/c/${id}?x=1`, `/c/${id}?x=1`],
        [`${url}//evil.example/x`, "/"],
        [`${url}/\\evil.example/x`, "/"],
        [`${url}///evil.example`, "/"],
        ["https://evil.example/x", "/"],
        ["//evil.example/x", "/"],
        ["not a url at all", "/"],
        ["http://[::1", "/"],
      ];
      for (const [referer, location] of table) {
        const res = await fetch(url + "/lang/en", {
          redirect: "manual",
          headers: referer ? { referer } : {},
        });
        assert.equal(res.status, 303, String(referer));
        assert.equal(res.headers.get("location"), location, String(referer));
      }
    });

    await t.step("form bodies are capped at 8 KiB with 413, streamed or declared", async () => {
      const big = "title=" + "a".repeat(64 * 1024);
      const declared = await jar.fetch(`${url}/c/${id}/rename`, {
        method: "POST",
        body: big,
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      assert.equal(declared.status, 413);
      await declared.body?.cancel();
      const chunks = new TextEncoder().encode(big);
      const streamed = await jar.fetch(`${url}/c/${id}/rename`, {
        method: "POST",
        body: new ReadableStream({
          start(c) {
            for (let i = 0; i < chunks.length; i += 4096) c.enqueue(chunks.slice(i, i + 4096));
            c.close();
          },
        }),
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      assert.equal(streamed.status, 413);
      assert.match(await streamed.text(), /413/);
      const me = await fetch(`${url}/me/delete`, {
        method: "POST",
        body: big,
        redirect: "manual",
      });
      assert.equal(me.status, 413);
      await me.body?.cancel();
    });

    await t.step("bad query parameters are 400 invalid_request", async () => {
      const cases = [
        "/api/chats?cursor=garbage",
        "/api/chats?cursor=AA%3D%3DAA",
        "/api/chats?cursor=%2F%2F8%3D",
        "/api/chats?limit=abc",
        "/api/chats?limit=0",
        "/api/chats?limit=1e9",
      ];
      for (const path of cases) {
        const res = await jar.fetch(url + path);
        assert.equal(res.status, 400, path);
        assert.equal((await res.json()).error.code, "invalid_request", path);
      }
      for (const path of ["/?cursor=garbage", `/c/${id}?cursor=%zz`]) {
        const page = await jar.fetch(url + path);
        assert.equal(page.status, 400, path);
        assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
        await page.body?.cancel();
      }
      // A well-formed cursor that KV refuses (non-canonical base64) is also a 400, not a 500.
      const refused = await jar.fetch(url + "/api/chats?cursor=YR%3D%3D");
      assert.equal(refused.status, 400, "foreign cursor");
      await refused.body?.cancel();
      const ok = await jar.fetch(url + "/api/chats?limit=1");
      assert.equal(ok.status, 200);
      const page = await ok.json();
      const next = await jar.fetch(
        `${url}/api/chats?limit=1&cursor=${encodeURIComponent(page.cursor ?? "")}`,
      );
      assert.equal(next.status, 200);
      await next.body?.cancel();
    });

    await t.step("/api/usage wants exactly `Bearer <token>`", async () => {
      const token = "admin-token-0123456789";
      for (const authorization of [token, `Token ${token}`, `Bearer ${token}x`, "Bearer "]) {
        const res = await fetch(url + "/api/usage", { headers: { authorization } });
        assert.equal(res.status, 401, authorization);
        assert.equal((await res.json()).error.code, "unauthorized");
      }
      const ok = await fetch(url + "/api/usage", { headers: { authorization: `Bearer ${token}` } });
      assert.equal(ok.status, 200);
      await ok.body?.cancel();
      const days = await fetch(url + "/api/usage?days=x", {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(days.status, 400);
      await days.body?.cancel();
    });
  } finally {
    await server.close();
  }
});

Deno.test("Secure cookies come from the deployment, not from req.url", async (t) => {
  for (
    const [env, secure] of [
      [{ DENO_DEPLOYMENT_ID: "dep1", SESSION_SECRET: "x".repeat(40) }, true],
      [{ COOKIE_SECURE: "true" }, true],
      [
        { DENO_DEPLOYMENT_ID: "dep1", SESSION_SECRET: "x".repeat(40), COOKIE_SECURE: "false" },
        false,
      ],
      [{}, false],
    ] as const
  ) {
    await t.step(JSON.stringify(env), async () => {
      const server = await startTestServer({ env, config: testConfig() });
      try {
        // The server is plain http on loopback, as behind a TLS-terminating proxy.
        const res = await postChat(server.url, { id: newChatId(), message: userMessage("Oi") });
        const cookie = res.headers.getSetCookie().find((c) => /visitor=/.test(c)) ?? "";
        await res.body?.cancel();
        if (secure) {
          assert.match(cookie, /^__Host-visitor=[^;]+;.*Path=\/;.*; Secure/);
          assert.doesNotMatch(cookie, /Domain=/i);
        } else {
          assert.match(cookie, /^visitor=/);
          assert.doesNotMatch(cookie, /Secure/);
        }
        const me = await fetch(server.url + "/api/me", { method: "DELETE" });
        await me.body?.cancel();
        const cleared = me.headers.getSetCookie();
        for (const c of cleared) assert.equal(/Secure/.test(c), secure, c);
        assert.ok(cleared.some((c) => c.startsWith(secure ? "__Host-visitor=;" : "visitor=;")));
      } finally {
        await server.close();
      }
    });
  }

  await t.step("a legacy visitor cookie keeps its chats and moves to __Host-visitor", async () => {
    const kv = await Deno.openKv(":memory:");
    const env = { SESSION_SECRET: "y".repeat(40) };
    const plain = await startTestServer({ kv, env: { ...env, COOKIE_SECURE: "false" } });
    let legacy: string;
    let chat: string;
    try {
      const v = await newVisitorWithChat(plain);
      legacy = v.jar.cookies.get("visitor")!;
      chat = v.id;
    } finally {
      await plain.close();
    }
    const secure = await startTestServer({ kv, env: { ...env, COOKIE_SECURE: "true" } });
    try {
      const res = await fetch(`${secure.url}/api/chats/${chat}`, {
        headers: { cookie: `visitor=${legacy}` },
      });
      assert.equal(res.status, 200, "the legacy cookie still owns the chat");
      await res.body?.cancel();
      const moved = res.headers.getSetCookie().find((c) => c.startsWith("__Host-visitor="));
      assert.equal(moved?.split(";")[0], `__Host-visitor=${legacy}`);
      const page = await fetch(`${secure.url}/c/${chat}`, {
        headers: { cookie: `__Host-visitor=${legacy}` },
      });
      assert.equal(page.status, 200);
      assert.equal(page.headers.getSetCookie().length, 0, "nothing to move any more");
      await page.body?.cancel();
    } finally {
      await secure.close();
      kv.close();
    }
  });
});
