/**
 * Retrieval eval of the Postgres search beside the embedded engine, on the same BEIR files:
 *
 *   SEARCH_DATABASE_URL=postgres://… deno task eval:pg --corpus corpus.jsonl \
 *     --queries queries.jsonl --qrels qrels.tsv [--lang pt|en]
 *
 * Indexes the corpus into a schema of its own (dropped after), ranks every judged query with
 * both engines and prints one JSON line: nDCG@10, MRR@10, recall@10 and query p50/p95 of each.
 * `--site` does it on our own bilingual corpus and its question sets (scripts/eval_site.ts):
 * nDCG@10 per set (pt, en, cross) of each engine.
 */
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
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
import { buildIndexData } from "@/lib/search/index_data.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import { connectPg } from "@/lib/search/postgres/client.ts";
import { indexIntoPg, pgDocuments } from "@/lib/search/postgres/pg_index.ts";
import { createPgSiteSearch } from "@/lib/search/postgres/pg_search.ts";
import { createSchema, dropSchema } from "@/lib/search/postgres/schema.ts";
import type { PgRankTuning } from "@/lib/search/postgres/ranking_sql.ts";
import { loadCorpus } from "@/lib/search/manifest.ts";
import { loadSiteSet, runSiteQueries, SITE_SETS, summarize } from "./eval_site.ts";

interface Scores {
  ndcg: number;
  mrr: number;
  r10: number;
  times: number[];
}

function summary(s: Scores, n: number) {
  const r = (x: number, d = 4) => Number(x.toFixed(d));
  return {
    "ndcg@10": r(s.ndcg / (n || 1)),
    "mrr@10": r(s.mrr / (n || 1)),
    "recall@10": r(s.r10 / (n || 1)),
    p50_ms: r(percentile(s.times, 50), 3),
    p95_ms: r(percentile(s.times, 95), 3),
  };
}

/** Runs both engines over the set; the JSON line's object. */
export async function evalPg(args: string[], url: string): Promise<Record<string, unknown>> {
  const { values } = parseArgs({
    args,
    options: {
      corpus: { type: "string" },
      queries: { type: "string" },
      qrels: { type: "string" },
      lang: { type: "string", default: "pt" },
      tuning: { type: "string" },
      "entry-question": { type: "string" },
    },
  });
  const lang = toLang(values.lang);
  const docs = parseJsonl<BeirDoc>(readFileSync(values.corpus!, "utf8"), values.corpus!);
  const queries = parseJsonl<{ _id: string; text: string }>(
    readFileSync(values.queries!, "utf8"),
    values.queries!,
  );
  const qrels = parseQrels(readFileSync(values.qrels!, "utf8"));
  const passages = docs.map((d) => ({
    id: d._id,
    docId: d._id,
    title: d.title ?? "",
    url: null,
    lang,
    text: d.text,
  }));
  const engine = new SearchEngine(buildIndexData(passages));
  const schema = `eval_${Deno.pid}`;
  const sql = connectPg(url, { schema, max: 2, statementTimeoutMs: 120_000 });
  try {
    await createSchema(sql, schema);
    const t0 = performance.now();
    await indexIntoPg(
      sql,
      passages.map((p) => ({
        id: p.id,
        contentHash: p.text,
        url: null,
        lang,
        passages: [p],
      })),
      { batchDocs: 500 },
    );
    const indexMs = performance.now() - t0;
    const tuning = values.tuning ? JSON.parse(values.tuning) as Partial<PgRankTuning> : {};
    // `--entry-question 0,0` turns the FAQ entry lift off, to measure what it adds.
    const entryQuestion = values["entry-question"]?.split(",").map(Number) as
      | [number, number]
      | undefined;
    const pg = createPgSiteSearch({ sql, deadlineMs: 30_000, tuning, entryQuestion });
    const emb: Scores = { ndcg: 0, mrr: 0, r10: 0, times: [] };
    const pgs: Scores = { ndcg: 0, mrr: 0, r10: 0, times: [] };
    let n = 0;
    for (const q of queries) {
      const rel = qrels.get(q._id);
      if (!rel) continue;
      let s = performance.now();
      const a = engine.rankLexical(q.text, 10).ids.map((i) => docs[i]._id);
      emb.times.push(performance.now() - s);
      s = performance.now();
      const b = (await pg.search(q.text, { k: 10 })).passages.map((p) => p.id);
      pgs.times.push(performance.now() - s);
      for (const [ids, acc] of [[a, emb], [b, pgs]] as const) {
        acc.ndcg += ndcgAt(ids, rel, 10);
        acc.mrr += mrrAt(ids, rel, 10);
        acc.r10 += recallAt(ids, rel, 10);
      }
      n++;
    }
    return {
      queries: n,
      docs: docs.length,
      embedded: summary(emb, n),
      postgres: { ...summary(pgs, n), index_ms: Math.round(indexMs) },
    };
  } finally {
    await dropSchema(sql, schema).catch(() => {});
    await sql.end({ timeout: 1 });
  }
}

/** Both engines on our own corpus (indexed as `deno task index --to postgres` does). */
export async function evalPgSite(url: string): Promise<Record<string, unknown>> {
  const set = await loadSiteSet();
  const embedded = summarize(runSiteQueries(set));
  const schema = `eval_site_${Deno.pid}`;
  const sql = connectPg(url, { schema, max: 3, statementTimeoutMs: 120_000 });
  try {
    await createSchema(sql, schema);
    const corpus = await loadCorpus(fileURLToPath(new URL("../corpus/", import.meta.url)));
    await indexIntoPg(sql, pgDocuments(corpus));
    const pg = createPgSiteSearch({ sql, deadlineMs: 30_000 });
    const bySet: Record<string, number[]> = {};
    const times: number[] = [];
    // Untimed warm-up: the first search reads the status, the first translation the lexicon.
    for (const q of set.queries.slice(0, 3)) await pg.search(q.text, { k: 10 });
    for (const q of set.queries) {
      const s = performance.now();
      const ids = (await pg.search(q.text, { k: 10 })).passages.map((p) => p.id);
      times.push(performance.now() - s);
      (bySet[q.metadata.set] ??= []).push(ndcgAt(ids, set.qrels.get(q._id) ?? new Map(), 10));
    }
    const mean = (xs: number[]) => Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(4));
    return {
      embedded: Object.fromEntries(SITE_SETS.map((s) => [s, embedded[s]["ndcg@10"]])),
      postgres: {
        ...Object.fromEntries(SITE_SETS.map((s) => [s, mean(bySet[s] ?? [])])),
        p50_ms: Number(percentile(times, 50).toFixed(3)),
        p95_ms: Number(percentile(times, 95).toFixed(3)),
      },
    };
  } finally {
    await dropSchema(sql, schema).catch(() => {});
    await sql.end({ timeout: 1 });
  }
}

if (import.meta.main) {
  const url = Deno.env.get("SEARCH_DATABASE_URL");
  if (!url) {
    console.error(
      "Set SEARCH_DATABASE_URL to a Postgres database (scripts/pg_cluster.sh starts one).",
    );
    Deno.exit(1);
  }
  const site = Deno.args.includes("--site");
  console.log(JSON.stringify(site ? await evalPgSite(url) : await evalPg(Deno.args, url)));
}
