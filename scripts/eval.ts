/**
 * Retrieval eval over BEIR files with the app's own engine and analysis.
 *
 *   deno task eval --corpus corpus.jsonl --queries queries.jsonl --qrels qrels.tsv [--lang pt|en]
 *     [--typos]   (each question with one typo, lib/eval/typos.ts)
 *   deno task eval --site [--lexicon lexicon.tsv] [--verbose]   (our own corpus, scripts/eval_site.ts)
 *
 * Prints exactly one JSON line on stdout. Tuning flags (defaults are the
 * app's): --k1, --b, --title-weight; --lexicon <tsv> searches with that bilingual lexicon on
 * every site (by default the shipped one translates on one-language sites), `--lexicon off`
 * with none.
 */
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { toLang } from "@/lib/search/analyzer.ts";
import {
  type BeirDoc,
  mrrAt,
  ndcgAt,
  parseJsonl,
  parseQrels,
  percentile,
  recallAt,
} from "@/lib/search/beir.ts";
import { DEFAULT_BM25 } from "@/lib/search/bm25.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import { lexiconChoice } from "@/lib/search/lexicon.ts";
import { buildIndexData, DEFAULT_TITLE_WEIGHT } from "@/lib/search/index_data.ts";
import { loadSiteSet, runSiteQueries, summarize } from "./eval_site.ts";
import { withTypo } from "@/lib/eval/typos.ts";

const USAGE =
  "Usage: deno task eval --corpus <corpus.jsonl> --queries <queries.jsonl> --qrels <qrels.tsv> [--lang pt|en]";

function read(path: string | undefined, flag: string): string {
  if (!path) throw new Error(`Missing ${flag}. ${USAGE}`);
  try {
    return readFileSync(path, "utf8");
  } catch {
    throw new Error(`Cannot read ${flag} "${path}": check the path. ${USAGE}`);
  }
}

/** Run the eval and return its metrics object. */
export function runEval(args: string[]): Record<string, number> {
  const { values } = parseArgs({
    args,
    options: {
      corpus: { type: "string" },
      queries: { type: "string" },
      qrels: { type: "string" },
      lang: { type: "string", default: "pt" },
      k1: { type: "string" },
      b: { type: "string" },
      "title-weight": { type: "string" },
      lexicon: { type: "string" },
      typos: { type: "boolean", default: false },
    },
  });
  if (values.lang !== "pt" && values.lang !== "en") {
    throw new Error(`Unknown --lang "${values.lang}": use pt or en`);
  }
  const lang = toLang(values.lang);
  const docs = parseJsonl<BeirDoc>(read(values.corpus, "--corpus"), values.corpus!);
  const queries = parseJsonl<{ _id: string; text: string }>(
    read(values.queries, "--queries"),
    values.queries!,
  ).map((q) => values.typos ? { ...q, text: withTypo(q.text) } : q);
  const qrels = parseQrels(read(values.qrels, "--qrels"));

  const t0 = performance.now();
  const data = buildIndexData(
    docs.map((d) => ({
      id: d._id,
      docId: d._id,
      title: d.title ?? "",
      url: null,
      lang,
      text: d.text,
    })),
    { titleWeight: values["title-weight"] ? Number(values["title-weight"]) : DEFAULT_TITLE_WEIGHT },
  );
  const engine = new SearchEngine(data, {
    bm25: {
      k1: values.k1 ? Number(values.k1) : DEFAULT_BM25.k1,
      b: values.b ? Number(values.b) : DEFAULT_BM25.b,
    },
    ...lexiconChoice(values.lexicon, (path) => read(path, "--lexicon")),
  });
  const indexMs = performance.now() - t0;

  const sums = { ndcg: 0, mrr: 0, r10: 0, r100: 0 };
  const times: number[] = [];
  let n = 0;
  for (const q of queries) {
    const rel = qrels.get(q._id);
    if (!rel) continue;
    const s = performance.now();
    const ranked = engine.rankLexical(q.text, 100);
    times.push(performance.now() - s);
    const ids = ranked.ids.map((i) => docs[i]._id);
    sums.ndcg += ndcgAt(ids, rel, 10);
    sums.mrr += mrrAt(ids, rel, 10);
    sums.r10 += recallAt(ids, rel, 10);
    sums.r100 += recallAt(ids, rel, 100);
    n++;
  }
  const r = (x: number, d = 4) => Number(x.toFixed(d));
  return {
    "ndcg@10": r(sums.ndcg / (n || 1)),
    "mrr@10": r(sums.mrr / (n || 1)),
    "recall@10": r(sums.r10 / (n || 1)),
    "recall@100": r(sums.r100 / (n || 1)),
    queries: n,
    docs: docs.length,
    index_ms: r(indexMs, 1),
    query_p50_ms: r(percentile(times, 50), 3),
    query_p99_ms: r(percentile(times, 99), 3),
  };
}

/** The site set's line: metrics per query set, and per query with --verbose. */
export async function runSiteEval(args: string[]): Promise<Record<string, unknown>> {
  const { values } = parseArgs({
    args,
    options: {
      site: { type: "boolean" },
      lexicon: { type: "string" },
      verbose: { type: "boolean", default: false },
    },
  });
  const set = await loadSiteSet();
  const lexicons = lexiconChoice(values.lexicon, (path) => read(path, "--lexicon"));
  const results = runSiteQueries(set, lexicons);
  return {
    ...summarize(results),
    passages: set.passageIds.length,
    lexicon: Boolean(lexicons.lexicon),
    ...(values.verbose
      ? {
        per_query: results.map((r) => [r.id, r.firstRelevant, Number(r.ndcg10.toFixed(3)), r.text]),
      }
      : {}),
  };
}

if (import.meta.main) {
  try {
    const site = Deno.args.includes("--site");
    console.log(JSON.stringify(site ? await runSiteEval(Deno.args) : runEval(Deno.args)));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(2);
  }
}
