/**
 * The widget's server side over loopback: the API's cross-origin policy (allowed origins get
 * CORS, any other gets 403 origin_not_allowed, preflights included), the visitor token (same
 * ownership rules as the cookie, revoked by DELETE /api/me), the frame page framed only by
 * allowed origins, and the frame's token fetch against the real server.
 */
import assert from "node:assert/strict";
import { newChatId, postChat, readSse, testConfig, userMessage } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";
import { createTokenFetch, TOKEN_KEY } from "@/lib/widget/token_fetch.ts";

const ALLOWED = "https://widget.example";
const EVIL = "https://evil.example";

async function newToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api/visitor-token`, { method: "POST" });
  assert.equal(res.status, 200);
  return (await res.json()).token;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

Deno.test("widget API over loopback", async (t) => {
  const server = await startTestServer({ config: testConfig({ allowedOrigins: [ALLOWED] }) });
  const url = server.url;
  try {
    await t.step(
      "a foreign origin gets origin_not_allowed on every /api route, preflights too",
      async () => {
        const calls: [string, string][] = [
          ["GET", "/api/health"],
          ["GET", "/api/models"],
          ["GET", "/api/widget"],
          ["GET", "/api/chats"],
          ["POST", "/api/visitor-token"],
          ["DELETE", "/api/me"],
          ["OPTIONS", "/api/chat"],
          ["OPTIONS", "/api/chats"],
          ["OPTIONS", "/api/me"],
        ];
        for (const origin of [EVIL, "null"]) {
          for (const [method, path] of calls) {
            const res = await fetch(url + path, {
              method,
              headers: { origin, "access-control-request-method": "POST" },
            });
            assert.equal(res.status, 403, `${method} ${path} from ${origin}`);
            assert.equal((await res.json()).error.code, "origin_not_allowed", `${method} ${path}`);
            // Readable by the refused page, so the widget can say why.
            assert.equal(res.headers.get("access-control-allow-origin"), "*");
            assert.equal(res.headers.get("access-control-allow-credentials"), null);
          }
        }
      },
    );

    await t.step("an allowed origin gets CORS on answers, errors and preflights", async () => {
      const pre = await fetch(`${url}/api/chats/x`, {
        method: "OPTIONS",
        headers: {
          origin: ALLOWED,
          "access-control-request-method": "DELETE",
          "access-control-request-headers": "authorization, content-type",
        },
      });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get("access-control-allow-origin"), ALLOWED);
      assert.match(pre.headers.get("access-control-allow-methods") ?? "", /DELETE/);
      assert.match(pre.headers.get("access-control-allow-headers") ?? "", /authorization/);
      for (
        const [path, status] of [["/api/health", 200], ["/api/widget", 200], [
          "/api/nope",
          404,
        ]] as const
      ) {
        const res = await fetch(url + path, { headers: { origin: ALLOWED } });
        assert.equal(res.status, status, path);
        assert.equal(res.headers.get("access-control-allow-origin"), ALLOWED, path);
        assert.match(res.headers.get("vary") ?? "", /Origin/, path);
        await res.body?.cancel();
      }
      // Same origin and tools without Origin: no CORS headers, as before.
      const plain = await fetch(`${url}/api/health`);
      assert.equal(plain.headers.get("access-control-allow-origin"), null);
      await plain.body?.cancel();
    });

    await t.step("a token is a visitor: its chats are its own, no cookie is set", async () => {
      const token = await newToken(url);
      const id = newChatId();
      const res = await postChat(url, { id, message: userMessage("Quais dados guardam?") }, {
        headers: auth(token),
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.headers.getSetCookie(), [], "no cookie for a token visitor");
      assert.ok((await readSse(res)).done);
      const mine = await (await fetch(`${url}/api/chats`, { headers: auth(token) })).json();
      assert.deepEqual(mine.chats.map((c: { id: string }) => c.id), [id]);
      const other = await newToken(url);
      const theirs = await (await fetch(`${url}/api/chats`, { headers: auth(other) })).json();
      assert.deepEqual(theirs.chats, []);
      const peek = await fetch(`${url}/api/chats/${id}`, { headers: auth(other) });
      assert.equal(peek.status, 404, "another token sees nothing");
      await peek.body?.cancel();
      const anon = await fetch(`${url}/api/chats/${id}`);
      assert.equal(anon.status, 404, "no identity sees nothing");
      await anon.body?.cancel();
      const own = await fetch(`${url}/api/chats/${id}`, { headers: auth(token) });
      assert.equal(own.status, 200);
      await own.body?.cancel();
    });

    await t.step("DELETE /api/me revokes the token: 401 after, a new token works", async () => {
      const token = await newToken(url);
      const id = newChatId();
      const res = await postChat(url, { id, message: userMessage("Oi") }, { headers: auth(token) });
      assert.ok((await readSse(res)).done);
      const del = await fetch(`${url}/api/me`, { method: "DELETE", headers: auth(token) });
      assert.deepEqual(await del.json(), { deleted: 1 });
      for (const path of ["/api/chats", `/api/chats/${id}`]) {
        const after = await fetch(url + path, { headers: auth(token) });
        assert.equal(after.status, 401, path);
        assert.equal((await after.json()).error.code, "unauthorized");
      }
      const chat = await postChat(url, { id: newChatId(), message: userMessage("Oi") }, {
        headers: auth(token),
      });
      assert.equal(chat.status, 401, "a revoked token cannot chat (nor become a new visitor)");
      await chat.body?.cancel();
      const fresh = await fetch(`${url}/api/chats`, { headers: auth(await newToken(url)) });
      assert.equal(fresh.status, 200);
      await fresh.body?.cancel();
    });

    await t.step(
      "only allowed origins may frame /widget; other pages stay unframeable",
      async () => {
        const res = await fetch(`${url}/widget?lang=en&agent=contact`);
        assert.equal(res.status, 200);
        const csp = res.headers.get("content-security-policy") ?? "";
        assert.match(csp, new RegExp(`frame-ancestors 'self' ${ALLOWED}(;|$)`));
        assert.equal(res.headers.get("x-frame-options"), null);
        const html = await res.text();
        assert.match(html, /<html lang="en"/);
        assert.match(html, /<script src="\/widget_frame\.js"><\/script>/);
        const home = await fetch(`${url}/`);
        assert.equal(home.headers.get("x-frame-options"), "SAMEORIGIN");
        assert.match(home.headers.get("content-security-policy") ?? "", /frame-ancestors 'self';/);
        await home.body?.cancel();
      },
    );

    await t.step(
      "the frame's fetch gets a token, keeps it, and replaces a revoked one",
      async () => {
        const store = new Map<string, string>();
        const storage = {
          getItem: (k: string) => store.get(k) ?? null,
          setItem: (k: string, v: string) => void store.set(k, v),
          removeItem: (k: string) => void store.delete(k),
        };
        const seen: Request[] = [];
        const base: typeof fetch = (input, init) => {
          const req = new Request(input, init);
          seen.push(req.clone());
          return fetch(req);
        };
        const frameFetch = createTokenFetch({ base, origin: url, storage });
        const list = await frameFetch("/api/chats");
        assert.equal(list.status, 200);
        await list.body?.cancel();
        const first = store.get(TOKEN_KEY);
        assert.ok(first);
        assert.equal(seen.at(-1)?.headers.get("authorization"), `Bearer ${first}`);
        assert.equal(seen.at(-1)?.credentials, "omit");
        const del = await frameFetch("/api/me", { method: "DELETE" });
        assert.equal(del.status, 200);
        await del.body?.cancel();
        assert.equal(store.get(TOKEN_KEY), undefined, "DELETE /api/me forgets the token at once");
        const sent = seen.length;
        const again = await frameFetch("/api/chats");
        assert.equal(again.status, 200);
        await again.body?.cancel();
        const second = store.get(TOKEN_KEY);
        assert.ok(second && second !== first);
        // A new token first, then the call with it: the revoked one is never offered again.
        assert.deepEqual(
          seen.slice(sent).map((r) => [r.method, new URL(r.url).pathname]),
          [["POST", "/api/visitor-token"], ["GET", "/api/chats"]],
        );
        assert.equal(seen.at(-1)?.headers.get("authorization"), `Bearer ${second}`);

        // A token refused with 401 (revoked elsewhere, expired) is replaced once, the call repeated.
        store.set(TOKEN_KEY, first!);
        const replaced = await frameFetch("/api/chats");
        assert.equal(replaced.status, 200, "the revoked token was replaced and the call repeated");
        await replaced.body?.cancel();
        const third = store.get(TOKEN_KEY);
        assert.ok(third && third !== first && third !== second);
        // Calls elsewhere go untouched.
        const health = await frameFetch("/styles.css");
        assert.equal(seen.at(-1)?.headers.get("authorization"), null);
        await health.body?.cancel();
      },
    );
  } finally {
    await server.close();
  }
});
