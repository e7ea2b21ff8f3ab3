import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";

Deno.test("corpus pages over loopback: /sobre and /en/about", async (t) => {
  const server = await startTestServer();
  const get = (path: string, headers?: HeadersInit) => fetch(server.url + path, { headers });
  try {
    await t.step(
      "a Portuguese page: 200, heading ids, the way back, source and license",
      async () => {
        const res = await get("/sobre/como-funciona");
        assert.equal(res.status, 200);
        assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
        const html = await res.text();
        assert.match(html, /<article class="doc" lang="pt-BR">/);
        assert.match(html, /<h1 id="como-funciona-o-assistente">Como funciona o assistente<\/h1>/);
        assert.match(html, /<h2 id="uma-conversa-passo-a-passo">/);
        assert.match(html, /<h2 id="quando-algo-da-errado">Quando algo dá errado<\/h2>/);
        assert.match(html, /<a class="doc-back" href="\/">/);
        assert.match(html, /<a class="doc-alt" href="\/en\/about\/how-it-works" hreflang="en"/);
        // Its own title, and both language versions named for search engines.
        assert.match(html, /<title>Como funciona o assistente — [^<]+<\/title>/);
        assert.match(
          html,
          /<link\s+rel="alternate" hreflang="pt-BR" href="\/sobre\/como-funciona"\/?>/,
        );
        assert.match(
          html,
          /<link\s+rel="alternate" hreflang="en" href="\/en\/about\/how-it-works"\/?>/,
        );
        const singleRes = await get("/sobre/artefatos");
        assert.equal(singleRes.status, 200);
        const single = await singleRes.text();
        assert.ok(!single.includes('rel="alternate"'), "a page in one language names no alternate");
        assert.match(html, /Fonte: Equipe do assistente/);
        assert.match(html, /CC BY 4.0/);
        assert.match(html, /<header class="topbar">/);
        assert.match(html, /<footer class="footer">/);
        assert.ok(!html.includes("<script"), "a corpus page ships no JS");
      },
    );

    await t.step("an English page, with English chrome by Accept-Language", async () => {
      const res = await get("/en/about/streaming", { "Accept-Language": "en" });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /<html lang="en">/);
      assert.match(html, /<article class="doc" lang="en">/);
      assert.match(html, /<h2 id="stopping-an-answer">/);
      assert.match(html, /href="\/sobre\/respostas-em-tempo-real" hreflang="pt-BR"/);
      assert.match(html, /Back to the chat/);
      assert.match(html, /Source: Equipe do assistente/);
    });

    await t.step("every anchor a search passage cites exists on its page", async () => {
      const { passages } = await server.services.search.search("como funciona o streaming", {
        k: 10,
      });
      const anchored = passages.filter((p) => p.url?.includes("#"));
      assert.ok(anchored.length > 0, "the search returns anchored passage URLs");
      for (const p of anchored) {
        const [path, anchor] = p.url!.split("#");
        const res = await get(path);
        assert.equal(res.status, 200, p.url!);
        assert.ok(
          (await res.text()).includes(` id="${anchor}"`),
          `"${p.url}" lands on its heading`,
        );
      }
    });

    for (
      const path of [
        "/sobre/nao-existe",
        "/en/about/nope",
        "/sobre/notas-internas",
        "/en/about/como-funciona",
      ]
    ) {
      await t.step(`404 page for ${path}`, async () => {
        const res = await get(path);
        assert.equal(res.status, 404);
        assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
        const html = await res.text();
        assert.match(html, /class="error-page"/);
        assert.ok(!html.includes("Notas internas"), "nothing of the internal document leaks");
      });
    }

    await t.step("HEAD answers like GET, without a body", async () => {
      const res = await fetch(server.url + "/sobre/artefatos", { method: "HEAD" });
      assert.equal(res.status, 200);
      assert.equal(await res.text(), "");
    });
  } finally {
    await server.close();
  }
});
