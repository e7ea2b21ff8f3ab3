/**
 * What an import stores as a document's URL — later a source chip's link —
 * is an http(s) URL of the site's own origin, whatever a page names as its
 * canonical URL or a markdown file as its permalink.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatReport } from "@/lib/corpus/import/report.ts";
import { importCorpus } from "@/lib/corpus/import/run.ts";
import { recipePage, RECIPES, startFixtureSite } from "../support/fixture_site.ts";
import { tempDir } from "../support/temp.ts";

function emptyCorpus(): string {
  const dir = tempDir({ prefix: "corpus-links-" });
  writeFileSync(join(dir, "manifest.json"), "[]\n");
  return dir;
}

const urlsOf = (dir: string): Record<string, string | null> =>
  Object.fromEntries(
    JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"))
      .map((e: { id: string; url: string | null }) => [e.id, e.url]),
  );

const recipe = (slug: string) => RECIPES.findIndex(([s]) => s === slug);

Deno.test("a javascript: or foreign-origin canonical link is not stored as the document URL", async () => {
  const site = startFixtureSite();
  try {
    site.pages.get("/receitas/sonho")!.body = recipePage(recipe("sonho"), "javascript:alert(1)//");
    site.pages.get("/receitas/quindim")!.body = recipePage(
      recipe("quindim"),
      "https://evil.example",
    );
    site.listed = ["/receitas/sonho", "/receitas/quindim", "/receitas/brioche"];
    const dir = emptyCorpus();
    const r = await importCorpus({
      source: `${site.origin}/sitemap.xml`,
      corpusDir: dir,
      license: "CC-BY-4.0",
      idPrefix: "aurora",
      delayMs: 0,
    });
    const report = formatReport(r.entries, r.written);
    assert.equal(r.counts.added, 3, report);
    assert.deepEqual(urlsOf(dir), {
      "aurora-receitas-sonho": `${site.origin}/receitas/sonho`,
      "aurora-receitas-quindim": `${site.origin}/receitas/quindim`,
      "aurora-receitas-brioche": `${site.origin}/receitas/brioche`,
    });
    assert.match(
      report,
      /^note {5}.*\/receitas\/sonho: canonical link "javascript:alert\(1\)\/\/\/receitas\/sonho" ignored: not an http\(s\) URL of the site's own origin$/m,
    );
    assert.match(report, /\/receitas\/quindim: canonical link "https:\/\/evil\.example\/receitas/);
  } finally {
    await site.close();
  }
});

Deno.test("a folder's foreign canonical or javascript: permalink falls back to the served path", async () => {
  const src = tempDir({ prefix: "links-site-" });
  const origin = "https://aurora.example";
  writeFileSync(join(src, "quindim.html"), recipePage(recipe("quindim"), "https://evil.example"));
  writeFileSync(
    join(src, "novidades.md"),
    "---\ntitle: Novidades\nlang: pt\npermalink: javascript:alert(1)\n---\n# Novidades\n\nCafé coado na hora.\n",
  );
  const dir = emptyCorpus();
  const r = await importCorpus({
    source: src,
    corpusDir: dir,
    baseUrl: origin,
    idPrefix: "pasta",
    license: "CC0-1.0",
  });
  assert.equal(r.counts.added, 2, formatReport(r.entries, r.written));
  assert.deepEqual(urlsOf(dir), {
    "pasta-quindim": `${origin}/quindim.html`,
    "pasta-novidades": `${origin}/novidades`,
  });
  // Without --base-url only a root-relative path can be the site's own.
  const bare = emptyCorpus();
  await importCorpus({ source: src, corpusDir: bare, idPrefix: "pasta", license: "CC0-1.0" });
  assert.deepEqual(urlsOf(bare), {
    "pasta-quindim": "/quindim.html",
    "pasta-novidades": "/novidades",
  });
});
