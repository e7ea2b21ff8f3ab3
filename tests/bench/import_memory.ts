/**
 * Peak memory of a sitemap import: serves a sitemap of `--urls` pages on
 * loopback (200,000 by default) and imports it with `--max-urls` (dry run),
 * or with `--sitemap-only` just reads every URL of it. Prints one JSON line
 * with the process's peak resident memory (VmHWM), server included.
 *
 *   deno run -A tests/bench/import_memory.ts --urls 200000 --max-urls 1000
 *   deno run -A tests/bench/import_memory.ts --urls 200000 --sitemap-only
 */
import { parseArgs } from "node:util";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFetcher } from "@/lib/corpus/import/fetch_policy.ts";
import { importCorpus } from "@/lib/corpus/import/run.ts";
import { readSitemap } from "@/lib/corpus/import/sources.ts";
import { startBigSite } from "../support/big_site.ts";

/** Peak resident set size of this process in MiB (Linux), or NaN elsewhere. */
export function peakRssMiB(): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"))?.[1];
    return kb ? Math.round(Number(kb) / 102.4) / 10 : NaN;
  } catch {
    return NaN;
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      urls: { type: "string", default: "200000" },
      "max-urls": { type: "string", default: "1000" },
      "sitemap-only": { type: "boolean", default: false },
    },
  });
  const urls = Number(values.urls);
  const site = startBigSite(urls);
  try {
    const sitemap = `${site.origin}/sitemap.xml`;
    if (values["sitemap-only"]) {
      const fetcher = createFetcher({ origin: site.origin, delayMs: 0, timeoutMs: 120_000 });
      const read = await readSitemap(sitemap, fetcher, urls);
      console.log(JSON.stringify({ urls, read: read.urls.length, peakRssMiB: peakRssMiB() }));
    } else {
      const corpusDir = Deno.makeTempDirSync({ prefix: "import-memory-" });
      writeFileSync(join(corpusDir, "manifest.json"), "[]\n");
      const maxUrls = Number(values["max-urls"]);
      const r = await importCorpus({
        source: sitemap,
        corpusDir,
        license: "CC0-1.0",
        delayMs: 0,
        concurrency: 4,
        maxUrls,
        dryRun: true,
      });
      Deno.removeSync(corpusDir, { recursive: true });
      const capNote = r.entries.some((e) => e.kind === "note" && /URL cap reached/.test(e.detail));
      console.log(JSON.stringify({
        urls,
        maxUrls,
        added: r.counts.added,
        capNote,
        pagesFetched: site.pageHits,
        peakRssMiB: peakRssMiB(),
      }));
    }
  } finally {
    await site.close();
  }
}
