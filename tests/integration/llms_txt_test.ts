/**
 * `/llms.txt`, `/llms-full.txt` and `<page>.md` (issue 39): generated from the corpus
 * manifest, public pages only. llms.txt lists exactly the manifest's public pages; no
 * internal document (the demo corpus's `url: null` ones) is reachable through any of them.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../support/server.ts";
import { testConfig } from "../support/chat_client.ts";
import { internalSentences, manifestRows } from "../support/mcp.ts";

const ROOT = new URL("../../", import.meta.url);
const ROWS = await manifestRows();
const PUBLIC = ROWS.filter((d) => d.url !== null);
const INTERNAL = ROWS.filter((d) => d.url === null);
const SENTENCES = await internalSentences();

async function withServer(fn: (server: TestServer) => Promise<void>) {
  const server = await startTestServer({ config: testConfig() });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

function assertNoInternalText(text: string, where: string) {
  const leaked = SENTENCES.filter((s) => text.includes(s));
  assert.deepEqual(leaked, [], `${where} leaks internal text`);
}

const stripFrontMatter = (md: string) => md.replace(/^---\n[\s\S]*?\n---\n/, "");

Deno.test("llms.txt: the demo corpus has internal documents to keep out", () => {
  assert.ok(INTERNAL.length >= 1);
  assert.ok(SENTENCES.length >= 5);
});

Deno.test("llms.txt lists exactly the public manifest pages, as Markdown links", async () => {
  await withServer(async (server) => {
    const res = await fetch(`${server.url}/llms.txt`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    const text = await res.text();
    assert.match(text, /^# .+\n\n> /);
    const links = [...text.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)$/gm)];
    const urls = links.map((m) => m[2]).sort();
    assert.deepEqual(urls, PUBLIC.map((d) => `${server.url}${d.url}.md`).sort());
    for (const d of PUBLIC) assert.ok(text.includes(`[${d.title}]`), d.title);
    for (const d of INTERNAL) {
      assert.ok(!text.includes(d.id), `llms.txt names "${d.id}"`);
      assert.ok(!text.includes(d.title), `llms.txt names "${d.title}"`);
    }
    assert.ok(text.includes(`${server.url}/mcp`), "points agents at /mcp");
    assert.ok(text.includes(`${server.url}/llms-full.txt`));
  });
});

Deno.test("llms-full.txt holds every public page's Markdown and no internal text", async () => {
  await withServer(async (server) => {
    const res = await fetch(`${server.url}/llms-full.txt`);
    assert.equal(res.status, 200);
    const text = await res.text();
    for (const d of PUBLIC) {
      const md = stripFrontMatter(await Deno.readTextFile(new URL(`corpus/${d.path}`, ROOT)));
      assert.ok(text.includes(md.trim()), `${d.id} in full`);
      assert.ok(text.includes(`Source: ${server.url}${d.url} `), `${d.id} source line`);
    }
    assertNoInternalText(text, "llms-full.txt");
  });
});

Deno.test("<page>.md and Accept: text/markdown serve the indexed Markdown", async () => {
  await withServer(async (server) => {
    for (const d of PUBLIC) {
      const md = stripFrontMatter(await Deno.readTextFile(new URL(`corpus/${d.path}`, ROOT)));
      const res = await fetch(`${server.url}${d.url}.md`);
      assert.equal(res.status, 200, `${d.url}.md`);
      assert.equal(res.headers.get("content-type"), "text/markdown; charset=utf-8");
      assert.match(res.headers.get("vary") ?? "", /Accept/);
      assert.equal(await res.text(), md, `${d.url}.md is the file`);
      const negotiated = await fetch(`${server.url}${d.url}`, {
        headers: { accept: "text/markdown, text/html;q=0.5" },
      });
      assert.equal(negotiated.headers.get("content-type"), "text/markdown; charset=utf-8");
      assert.equal(await negotiated.text(), md);
    }
    // A browser still gets the HTML page, marked as varying by Accept.
    const html = await fetch(`${server.url}${PUBLIC[0].url}`, {
      headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
    });
    assert.match(html.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(html.headers.get("vary") ?? "", /Accept/);
    await html.body?.cancel();
  });
});

Deno.test("no internal document is reachable through .md, Accept or the llms files", async () => {
  await withServer(async (server) => {
    for (const d of INTERNAL) {
      const slug = d.path.replace(/^.*\//, "").replace(/\.md$/, "");
      for (const prefix of ["/sobre/", "/en/about/"]) {
        for (const slugOrId of new Set([slug, d.id])) {
          const paths = [`${prefix}${slugOrId}.md`, `${prefix}${slugOrId}`];
          for (const path of paths) {
            for (const accept of ["text/markdown", "text/html", "*/*"]) {
              const res = await fetch(server.url + path, { headers: { accept } });
              const body = await res.text();
              assert.equal(res.status, 404, `${path} (${accept})`);
              assertNoInternalText(body, `${path} (${accept})`);
            }
          }
        }
      }
    }
  });
});
