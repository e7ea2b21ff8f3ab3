/**
 * Corpus import bench: pages per second for a folder import of
 * built HTML and for a crawl of the loopback fixture site, and the share of
 * boilerplate words left in the passages the index would hold.
 *
 *   deno run -A tests/bench/corpus_import_bench.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importCorpus } from "@/lib/corpus/import/run.ts";
import { corpusPassages } from "@/lib/search/corpus_index.ts";
import { loadCorpus } from "@/lib/search/manifest.ts";
import { recipePage, RECIPES, startFixtureSite } from "../support/fixture_site.ts";

const FOLDER_PAGES = 240;
const REPS = 3;
// Sentences of the site's chrome (nav, cookie banner, newsletter call, footer) by a word of each.
const CHROME = /Sobre nós Contato|cookies|newsletter|direitos reservados|Laranjeiras/i;

function emptyCorpus(): string {
  const dir = Deno.makeTempDirSync({ prefix: "bench-corpus-" });
  writeFileSync(join(dir, "manifest.json"), "[]\n");
  return dir;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function folderRate(): Promise<number> {
  const src = Deno.makeTempDirSync({ prefix: "bench-site-" });
  for (let i = 0; i < FOLDER_PAGES; i++) {
    const dir = join(src, "receitas", `p${i}`);
    mkdirSync(dir, { recursive: true });
    const k = i % RECIPES.length;
    const html = recipePage(k, "https://b.example", 1 + Math.floor(i / RECIPES.length))
      .replace(`/receitas/${RECIPES[k][0]}"`, `/receitas/p${i}"`); // one canonical URL per page
    writeFileSync(join(dir, "index.html"), html);
  }
  const rates: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    const res = await importCorpus({
      source: src,
      corpusDir: emptyCorpus(),
      license: "CC0-1.0",
      baseUrl: "https://b.example",
    });
    rates.push((res.counts.added + res.counts.skipped) / ((performance.now() - t0) / 1000));
  }
  return median(rates);
}

async function crawl(): Promise<{ rate: number; pages: number; share: number; words: number }> {
  const site = startFixtureSite();
  try {
    const rates: number[] = [];
    let dir = "";
    let pages = 0;
    for (let r = 0; r < REPS; r++) {
      dir = emptyCorpus();
      const t0 = performance.now();
      const res = await importCorpus({
        source: `${site.origin}/sitemap.xml`,
        corpusDir: dir,
        license: "CC0-1.0",
        delayMs: 0,
        concurrency: 4,
      });
      pages = res.counts.added + res.counts.skipped;
      rates.push(pages / ((performance.now() - t0) / 1000));
    }
    let total = 0;
    let chrome = 0;
    for (const p of corpusPassages(await loadCorpus(dir))) {
      for (const sentence of p.text.split(/(?<=[.!?])\s+|\n+/)) {
        const n = (sentence.match(/\S+/g) ?? []).length;
        total += n;
        if (CHROME.test(sentence)) chrome += n;
      }
    }
    return { rate: median(rates), pages, share: chrome / total, words: total };
  } finally {
    await site.close();
  }
}

/** The bench's markdown section. */
export async function run(): Promise<string> {
  const folder = await folderRate();
  const web = await crawl();
  return [
    "## Corpus import",
    "",
    "`deno run -A tests/bench/corpus_import_bench.ts` (median of 3 runs, each into an empty corpus).",
    "",
    "| measure | value |",
    "| --- | --- |",
    `| folder import, ${FOLDER_PAGES} built HTML pages | ${folder.toFixed(0)} pages/s |`,
    `| loopback crawl of the fixture site (${web.pages} sitemap URLs incl. skipped; concurrency 4, delay 0) | ${
      web.rate.toFixed(0)
    } pages/s |`,
    `| boilerplate words left in the crawl's passages (nav, cookie banner, newsletter call, footer) | ${
      (web.share * 100).toFixed(2)
    }% of ${web.words} words |`,
    "",
    "A real crawl is paced by the delay (1 s between request starts by default, or the site's",
    "Crawl-delay), not by these rates. Each fixture page carries about 45 words of chrome",
    "around 130 words of recipe.",
  ].join("\n");
}

if (import.meta.main) console.log(await run());
