/**
 * corpus:import against real sources: a bakery site served from loopback
 * (tests/support/fixture_site.ts), folders of built HTML and of markdown, and
 * the failure cases. Imported corpora are indexed with the project's search
 * engine and searched.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatReport } from "@/lib/corpus/import/report.ts";
import { importCorpus, type ImportOptions, SourceError } from "@/lib/corpus/import/run.ts";
import { corpusPassages, indexCorpus } from "@/lib/search/corpus_index.ts";
import { loadCorpus } from "@/lib/search/manifest.ts";
import { loadSiteSearch } from "@/lib/search/mod.ts";
import { BOILERPLATE, recipePage, RECIPES, startFixtureSite } from "../support/fixture_site.ts";
import { tempDir } from "../support/temp.ts";

function emptyCorpus(): string {
  const dir = tempDir({ prefix: "corpus-import-" });
  writeFileSync(join(dir, "manifest.json"), "[]\n");
  return dir;
}

const crawl = (source: string, corpusDir: string, extra: Partial<ImportOptions> = {}) =>
  importCorpus({
    source,
    corpusDir,
    license: "CC-BY-4.0",
    idPrefix: "aurora",
    delayMs: 0,
    concurrency: 4,
    ...extra,
  });

const targets = (r: { entries: Array<{ kind: string; target: string }> }, kind: string) =>
  r.entries.filter((e) => e.kind === kind).map((e) =>
    URL.canParse(e.target) ? new URL(e.target).pathname : e.target
  ).sort();

Deno.test("a crawled site imports its content, skips what it must, and searches without boilerplate", async () => {
  const site = startFixtureSite();
  try {
    const dir = emptyCorpus();
    const r = await crawl(`${site.origin}/sitemap.xml`, dir);
    assert.equal(r.counts.added, RECIPES.length + 3, formatReport(r.entries, r.written));
    assert.deepEqual(targets(r, "skipped"), [
      "/antiga",
      "/cardapio.pdf",
      "/privado/precos-internos",
      "/rascunho",
      "/sumiu",
    ]);
    const why = (path: string) => r.entries.find((e) => e.target === site.origin + path)!.detail;
    assert.match(why("/privado/precos-internos"), /robots\.txt/);
    assert.match(why("/rascunho"), /noindex/);
    assert.match(why("/sumiu"), /status 404/);
    assert.match(why("/cardapio.pdf"), /not HTML.*application\/pdf/);
    assert.match(why("/antiga"), /same page as ".*\/receitas\/pao-de-queijo"/);
    assert.equal(site.hits.get("/privado/precos-internos"), undefined, "robots.txt was not obeyed");

    const docs = await loadCorpus(dir); // checksums, licenses, ids: the index's own checks
    const en = docs.find((d) => d.url === `${site.origin}/en/about`)!;
    assert.equal(en.lang, "en");
    assert.equal(en.title, "About the bakery");
    const fuba = docs.find((d) => d.url === `${site.origin}/receitas/bolo-de-fuba`)!;
    assert.equal(fuba.lang, "pt");
    assert.match(fuba.markdown, /^# Bolo de fubá\n/);
    assert.match(fuba.markdown, /\n## Modo de preparo\n/);

    const out = join(tempDir(), "index.bin");
    await indexCorpus({ corpusDir: dir, outPath: out });
    const search = loadSiteSearch({ assetPath: out });
    const hit = (await search.search("receita com fubá mimoso", { k: 3 })).passages[0];
    assert.equal(hit.id.split("#")[0], "aurora-receitas-bolo-de-fuba");
    assert.ok(hit.url?.startsWith(`${site.origin}/receitas/bolo-de-fuba`));
    const boiler = await search.search("newsletter cookies direitos reservados Laranjeiras", {
      k: 10,
    });
    for (const p of boiler.passages) {
      for (const b of BOILERPLATE) assert.ok(!p.text.includes(b), `boilerplate in ${p.id}`);
    }
    const words = /newsletter|cookies|direitos reservados|Laranjeiras|Sobre nós Contato/i;
    for (const p of corpusPassages(docs)) assert.doesNotMatch(p.text, words, p.id);
  } finally {
    await site.close();
  }
});

Deno.test("a second crawl reports exactly one page changed and one removed", async () => {
  const site = startFixtureSite();
  try {
    const dir = emptyCorpus();
    await crawl(`${site.origin}/sitemap.xml`, dir);
    const before = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    const oldPath = before.find((e: { id: string }) => e.id === "aurora-receitas-sonho").path;
    const i = RECIPES.findIndex(([slug]) => slug === "sonho");
    site.pages.get("/receitas/sonho")!.body = recipePage(i, site.origin, 2);
    site.listed = site.listed.filter((p) => p !== "/receitas/quindim");

    const r = await crawl(`${site.origin}/sitemap.xml`, dir);
    assert.deepEqual(targets(r, "changed"), ["/receitas/sonho"]);
    assert.deepEqual(targets(r, "removed"), ["/receitas/quindim"]);
    assert.equal(r.counts.added, 0);
    assert.equal(r.counts.unchanged, RECIPES.length + 1);
    assert.match(formatReport(r.entries, r.written), /^0 added, 1 changed, 1 removed, 5 skipped/m);
    const docs = await loadCorpus(dir);
    assert.equal(docs.length, before.length - 1);
    assert.match(docs.find((d) => d.id === "aurora-receitas-sonho")!.markdown, /cardamomo/);
    assert.ok(!existsSync(join(dir, oldPath)), "the old version's file is left behind");

    const again = await crawl(`${site.origin}/sitemap.xml`, dir);
    assert.equal(again.written, false);
    assert.equal(again.counts.unchanged, docs.length);
  } finally {
    await site.close();
  }
});

Deno.test("failure cases each leave a clear line, and a failed source writes nothing", async () => {
  const site = startFixtureSite();
  try {
    const dir = emptyCorpus();
    const r = await crawl(`${site.origin}/sitemap-index.xml`, dir, { maxBytes: 100_000 });
    const report = formatReport(r.entries, r.written);
    assert.match(report, /^note {5}.*\/sitemap-index\.xml: sitemap index of 2 sitemaps$/m);
    assert.match(report, /^error {4}.*\/sitemap-nao-existe\.xml: sitemap unusable: status 404$/m);
    assert.match(report, /^skipped {2}.*\/grande: larger than the size cap of 100000 bytes$/m);
    assert.match(report, /^skipped {2}.*\/quebrada: invalid HTML/m);
    assert.match(
      report,
      /^skipped {2}.*\/loop-a: redirect loop: .*\/loop-a → .*\/loop-b → .*\/loop-a$/m,
    );
    assert.deepEqual(targets(r, "added"), ["/receitas/brioche"]);

    // An unreachable sitemap stops the import before anything is written.
    const manifest = readFileSync(join(dir, "manifest.json"), "utf8");
    const files = readdirSync(dir, { recursive: true }).sort();
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (closed.addr as Deno.NetAddr).port;
    closed.close();
    await assert.rejects(
      () => crawl(`http://127.0.0.1:${port}/sitemap.xml`, dir),
      (e) =>
        e instanceof SourceError &&
        /Sitemap ".*" is unusable: unreachable.*nothing was imported/.test(e.message),
    );
    assert.equal(readFileSync(join(dir, "manifest.json"), "utf8"), manifest);
    assert.deepEqual(readdirSync(dir, { recursive: true }).sort(), files);
  } finally {
    await site.close();
  }
});

Deno.test("a folder of built HTML and of markdown with front matter imports", async () => {
  const src = tempDir({ prefix: "site-" });
  const put = (rel: string, text: string) => {
    mkdirSync(join(src, rel, ".."), { recursive: true });
    writeFileSync(join(src, rel), text);
  };
  const origin = "https://aurora.example";
  RECIPES.slice(0, 6).forEach(([slug], i) =>
    put(`receitas/${slug}/index.html`, recipePage(i, origin))
  );
  put(
    "blog/novidades.md",
    "---\ntitle: Novidades da padaria\nlang: pt\nlicense: CC0-1.0\n---\n# Novidades da padaria\n\nAgora servimos café coado na hora.\n",
  );
  put("blog/rascunho.mdx", "---\ntitle: Ainda não\ndraft: true\n---\nTexto.\n");
  put(
    "en/news.mdx",
    "---\ntitle: Bakery news\nlang: en\npermalink: /en/news\n---\nimport X from './x'\n\nWe now serve filter coffee.\n",
  );
  put(
    "sobre/index.html",
    `<html lang="pt-BR"><head><title>Sobre | Aurora</title><link rel="license" href="https://creativecommons.org/licenses/by/4.0/"></head><body><nav><a href="/">Início</a></nav><main><h1>Sobre a padaria</h1><p>Fundada em 1987 por Aurora Menezes, a padaria mantém o forno a lenha original.</p></main></body></html>`,
  );
  put("sem-licenca.md", "# Sem licença\n\nTexto sem licença.\n");
  const dir = emptyCorpus();
  const r = await importCorpus({ source: src, corpusDir: dir, baseUrl: origin, idPrefix: "pasta" });
  assert.deepEqual(
    targets(r, "added"),
    ["blog/novidades.md", "sobre/index.html"],
    formatReport(r.entries, r.written),
  );
  const why = (t: string) => r.entries.find((e) => e.target === t)?.detail ?? "";
  assert.match(why("blog/rascunho.mdx"), /draft/);
  assert.match(why("sem-licenca.md"), /no license: pass --license/);
  assert.match(why("receitas/rosca-de-coco/index.html"), /no license: pass --license/);

  const r2 = await importCorpus({
    source: src,
    corpusDir: dir,
    baseUrl: origin,
    idPrefix: "pasta",
    license: "CC-BY-4.0",
  });
  assert.equal(r2.counts.added, 8, formatReport(r2.entries, r2.written));
  assert.equal(r2.counts.unchanged, 2);
  const docs = await loadCorpus(dir);
  const md = docs.find((d) => d.title === "Novidades da padaria")!;
  assert.equal(md.markdown, readFileSync(join(src, "blog/novidades.md"), "utf8"));
  assert.equal(md.url, `${origin}/blog/novidades`);
  assert.equal(md.license, "CC0-1.0", "the front matter's own license yields to --license");
  const en = docs.find((d) => d.title === "Bakery news")!;
  assert.equal(en.url, `${origin}/en/news`);
  assert.equal(en.lang, "en");
  const html = docs.find((d) => d.url === `${origin}/receitas/rosca-de-coco`)!;
  assert.equal(html.title, "Rosca de coco");
  assert.match(html.markdown, /^# Rosca de coco\n[\s\S]*coco ralado fresco/);
  assert.doesNotMatch(html.markdown, /cookies|newsletter|direitos reservados|Laranjeiras/);
  // No canonical link: the URL is the path the file is served at; the page's license link counts.
  const about = docs.find((d) => d.title === "Sobre a padaria")!;
  assert.equal(about.url, `${origin}/sobre/`);
  assert.equal(about.license, "https://creativecommons.org/licenses/by/4.0/");
  assert.doesNotMatch(about.markdown, /Início/);
});
