import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { readAsset } from "@/lib/search/asset.ts";
import { splitSections } from "@/lib/search/chunker.ts";
import { corpusPassages } from "@/lib/search/corpus_index.ts";
import { FIELDS_PER_PASSAGE } from "@/lib/search/index_data.ts";
import { loadCorpus } from "@/lib/search/manifest.ts";
import { DEFAULT_ASSET_URL } from "@/lib/search/mod.ts";
import { stringAt } from "@/lib/search/string_table.ts";
import {
  createDocPages,
  DEFAULT_CORPUS_DIR,
  type DocPageData,
  isOtherOrigin,
  renderDoc,
  TRANSLATIONS,
} from "./pages.ts";

const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));

/** Every anchored URL must name a page, and its #anchor an id on that page. */
function assertUrlsLand(urls: Iterable<string>, pages: DocPageData[]): number {
  const byUrl = new Map(pages.map((p) => [p.url, ids(p.html)]));
  let checked = 0;
  for (const url of urls) {
    const [path, anchor] = url.split("#");
    const pageIds = byUrl.get(path);
    assert.ok(pageIds, `passage URL "${url}" names no page`);
    if (anchor !== undefined) {
      assert.ok(pageIds.has(anchor), `"#${anchor}" is not an id on "${path}"`);
      checked++;
    }
  }
  return checked;
}

Deno.test("every manifest document with a url renders, at its url", async () => {
  const docs = await loadCorpus(DEFAULT_CORPUS_DIR);
  const pages = createDocPages();
  const all = await pages.all();
  assert.deepEqual(all.map((p) => p.url), docs.filter((d) => d.url).map((d) => d.url));
  for (const doc of docs.filter((d) => d.url)) {
    const page = await pages.get(doc.url!);
    assert.ok(page, `no page for "${doc.url}"`);
    assert.equal(page.title, doc.title);
    assert.equal(page.license, doc.license);
    assert.match(page.html, /^<section class="doc-section">\n<h1 id="[a-z0-9-]+">/);
    assert.equal(page.headings[0].text, doc.title, `the H1 of "${doc.path}" is its manifest title`);
  }
});

Deno.test("internal documents and unknown urls have no page", async () => {
  const pages = createDocPages();
  assert.equal(await pages.get("/sobre/notas-internas"), null);
  assert.equal(await pages.get("/sobre/nao-existe"), null);
  assert.equal(await pages.get("/en/about/como-funciona"), null);
  assert.ok(!(await pages.all()).some((p) => p.id === "notas-internas"));
});

Deno.test("pages are rendered once and kept", async () => {
  const pages = createDocPages();
  assert.equal(await pages.get("/sobre/artefatos"), await pages.get("/sobre/artefatos"));
});

Deno.test("every passage URL the chunker makes lands on a heading id of its page", async () => {
  const docs = await loadCorpus(DEFAULT_CORPUS_DIR);
  const urls = corpusPassages(docs).flatMap((p) => p.url ? [p.url] : []);
  const checked = assertUrlsLand(urls, await createDocPages().all());
  assert.ok(checked > 40, `only ${checked} anchored URLs checked`);
});

Deno.test({
  name: "every passage URL of the built index lands on a heading id of its page",
  ignore: !existsSync(DEFAULT_ASSET_URL),
  async fn() {
    const data = readAsset(readFileSync(DEFAULT_ASSET_URL));
    const urls: string[] = [];
    for (let i = 0; i < data.header.counts.passages; i++) {
      const url = stringAt(data.strings, i * FIELDS_PER_PASSAGE + 2);
      if (url) urls.push(url);
    }
    assert.ok(urls.length > 0);
    assertUrlsLand(urls, await createDocPages().all());
  },
});

Deno.test("heading ids are the chunker's section anchors, in the same order", async () => {
  for (const doc of await loadCorpus(DEFAULT_CORPUS_DIR)) {
    const anchors = splitSections(doc.markdown).filter((s) => s.level > 0).map((s) => s.anchor);
    assert.deepEqual(renderDoc(doc.markdown).headings.map((h) => h.id), anchors, doc.path);
  }
});

Deno.test("translated pages link to each other", async () => {
  const pages = createDocPages();
  for (const [pt, en] of Object.entries(TRANSLATIONS)) {
    const all = await pages.all();
    const a = all.find((p) => p.id === pt);
    const b = all.find((p) => p.id === en);
    assert.ok(a && b, `"${pt}" and "${en}" are both public pages`);
    assert.deepEqual(a.alternate, { url: b.url, title: b.title, lang: "en" });
    assert.deepEqual(b.alternate, { url: a.url, title: a.title, lang: "pt" });
  }
  assert.equal((await pages.get("/sobre/modelos"))!.alternate, null);
});

Deno.test("renderDoc: ids by the page's slugger, duplicates numbered, setext and quoted headings skipped", () => {
  const { html, headings } = renderDoc(
    "---\ntitle: x\n---\n# Título\n\n## Uso\n\ntext\n\n## Uso\n\nSetext\n------\n\n> ## Uso\n\n### Ação `local` & **mais**\n",
  );
  assert.deepEqual(headings.map((h) => h.id), ["titulo", "uso", "uso-1", "acao-local-mais"]);
  assert.ok(!html.includes("title: x"), "front matter is dropped");
  assert.match(html, /<h2>Setext<\/h2>/);
  assert.match(html, /<blockquote>\n<h2>Uso<\/h2>/);
  assert.equal(html.match(/<section class="doc-section">/g)?.length, 4);
  assert.equal(html.match(/<\/section>/g)?.length, 4);
});

Deno.test("renderDoc: raw HTML is escaped; only links to other origins open a new tab", () => {
  const { html } = renderDoc(
    '<script>alert(1)</script>\n\n<b onclick="x">b</b> [in](/sobre/artefatos#versoes) ' +
      "[out](https://example.com/a) [mail](mailto:a@b.c) [js](javascript:alert(1))",
  );
  assert.ok(!html.includes("<script>") && !html.includes("<b "));
  assert.match(html, /&lt;script&gt;/);
  assert.match(html, /<a href="\/sobre\/artefatos#versoes">in<\/a>/);
  assert.match(
    html,
    /<a href="https:\/\/example.com\/a" target="_blank" rel="noopener noreferrer">out<\/a>/,
  );
  assert.ok(!html.includes('href="javascript:'), "markdown-it refuses javascript: links");
  assert.ok(isOtherOrigin("//cdn.example/x") && !isOtherOrigin("/x") && !isOtherOrigin("#a"));
});
