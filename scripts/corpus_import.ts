/**
 * `deno task corpus:import <folder | https://site/sitemap.xml | urls.txt> [options]`:
 * imports a site's pages into corpus/ (see docs/corpus-import.md). Prints
 * what was added, changed, removed and skipped, and why. Exit status 1 when
 * the source is unusable (nothing written), 0 otherwise.
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { formatReport } from "@/lib/corpus/import/report.ts";
import { importCorpus } from "@/lib/corpus/import/run.ts";
import { DEFAULT_MAX_URLS } from "@/lib/corpus/import/sources.ts";

const USAGE = `Usage: deno task corpus:import <folder | https://site/sitemap.xml | urls.txt>
  [--lang pt|en|auto] [--license ID] [--source NAME] [--include GLOB]... [--exclude GLOB]...
  [--base-url URL] [--id-prefix NAME] [--corpus DIR] [--concurrency N] [--delay MS]
  [--timeout MS] [--max-bytes N] [--max-urls N] [--dry-run]`;

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      lang: { type: "string", default: "auto" },
      license: { type: "string" },
      source: { type: "string" },
      include: { type: "string", multiple: true, default: [] },
      exclude: { type: "string", multiple: true, default: [] },
      "base-url": { type: "string" },
      "id-prefix": { type: "string" },
      corpus: { type: "string", default: fileURLToPath(new URL("../corpus", import.meta.url)) },
      concurrency: { type: "string", default: "2" },
      delay: { type: "string", default: "1000" },
      timeout: { type: "string", default: "15000" },
      "max-bytes": { type: "string", default: String(2 * 1024 * 1024) },
      "max-urls": { type: "string", default: String(DEFAULT_MAX_URLS) },
      "dry-run": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  const lang = values.lang;
  if (values.help || positionals.length !== 1 || !["pt", "en", "auto"].includes(lang!)) {
    console.error(USAGE);
    Deno.exit(values.help ? 0 : 2);
  }
  const t0 = performance.now();
  try {
    const result = await importCorpus({
      source: positionals[0],
      corpusDir: values.corpus!,
      lang: lang as "pt" | "en" | "auto",
      license: values.license,
      sourceName: values.source,
      include: values.include,
      exclude: values.exclude,
      baseUrl: values["base-url"],
      idPrefix: values["id-prefix"],
      concurrency: Number(values.concurrency),
      delayMs: Number(values.delay),
      timeoutMs: Number(values.timeout),
      maxBytes: Number(values["max-bytes"]),
      maxUrls: Number(values["max-urls"]),
      dryRun: values["dry-run"],
    });
    console.log(formatReport(result.entries, result.written));
    console.log(
      `Done in ${Math.round(performance.now() - t0)} ms.` +
        (result.written
          ? (Deno.env.get("SEARCH_DATABASE_URL")
            ? " Run `deno task index --to postgres` to search the new corpus (only new and changed pages are written)."
            : " Run `deno task index` (or `deno task build`) to search the new corpus.")
          : ""),
    );
  } catch (error) {
    console.error(`Import stopped: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
