import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";

Deno.test("app over loopback: pages, static files, API errors", async (t) => {
  const server = await startTestServer();
  try {
    await t.step("GET / renders the shell with the island marker and boot script", async () => {
      const res = await fetch(server.url + "/");
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
      const html = await res.text();
      assert.match(html, /<html lang="pt-BR">/);
      assert.match(html, /data-island="ChatMessages"/);
      assert.match(html, /<script id="__island_props" type="application\/json" nonce="[^"]+">/);
      assert.match(html, /import \{ boot \} from "\/_islands\/boot-[0-9a-f]+\.js"/);
      assert.match(html, /Assistente do Site/);
      const island = /\/_islands\/(ChatMessages-[0-9a-f]+\.js)/.exec(html);
      assert.ok(island, "the island bundle is linked");
      const js = await fetch(`${server.url}/_islands/${island[1]}`);
      assert.equal(js.status, 200);
      assert.equal(js.headers.get("cache-control"), "public, max-age=31536000, immutable");
      await js.body?.cancel();
    });

    await t.step("English by Accept-Language", async () => {
      const html =
        await (await fetch(server.url + "/", { headers: { "Accept-Language": "en-US,en;q=0.9" } }))
          .text();
      assert.match(html, /<html lang="en">/);
      assert.match(html, /Do I need an account\?/, "a suggestion from the English pages");
    });

    await t.step("a static file answers with an ETag, then 304", async () => {
      const first = await fetch(server.url + "/styles.css");
      assert.equal(first.status, 200);
      const etag = first.headers.get("etag");
      assert.ok(etag);
      assert.match(first.headers.get("content-type") ?? "", /^text\/css/);
      await first.body?.cancel();
      const second = await fetch(server.url + "/styles.css", {
        headers: { "If-None-Match": etag },
      });
      assert.equal(second.status, 304);
      assert.equal(await second.text(), "");
    });

    await t.step("GET /api/health", async () => {
      const res = await fetch(server.url + "/api/health");
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.status, "ok");
      assert.equal(typeof body.version, "string");
    });

    await t.step("an unknown page is the 404 HTML page", async () => {
      const res = await fetch(server.url + "/no/such/page");
      assert.equal(res.status, 404);
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(await res.text(), /Página não encontrada/);
    });

    await t.step("an unknown /api path is JSON 404", async () => {
      const res = await fetch(server.url + "/api/x");
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), {
        error: { code: "not_found", message: 'No API route matches "/api/x".' },
      });
    });

    await t.step("a wrong method is 405 with Allow", async () => {
      const res = await fetch(server.url + "/api/health", { method: "POST" });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get("allow"), "GET, HEAD");
      assert.equal((await res.json()).error.code, "method_not_allowed");
    });

    await t.step("HEAD falls back to GET without a body", async () => {
      const res = await fetch(server.url + "/api/health", { method: "HEAD" });
      assert.equal(res.status, 200);
      assert.equal(await res.text(), "");
    });

    await t.step("path traversal does not escape static/", async () => {
      const res = await fetch(server.url + "/..%2Fdeno.json");
      assert.equal(res.status, 404);
      await res.body?.cancel();
    });
  } finally {
    await server.close();
  }
});
