/**
 * Retrieval eval on our own site: the corpus/ the app serves, indexed exactly as
 * `deno task build` does, against the hand-judged visitor questions in
 * tests/fixtures/site_qrels/ (Portuguese, English, and English questions whose answer is
 * only on a Portuguese page).
 *
 *   deno task eval --site [--lexicon lexicon.tsv] [--verbose]
 *
 * Prints one JSON line: nDCG@10, recall@5 and MRR@10 per set (pt, en, cross) and overall;
 * --verbose adds, per query, the rank of its first relevant passage.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { mrrAt, ndcgAt, parseJsonl, parseQrels, recallAt } from "@/lib/search/beir.ts";
import { corpusPassages, corpusTranslations } from "@/lib/search/corpus_index.ts";
import { type EngineOptions, SearchEngine } from "@/lib/search/engine.ts";
import { buildIndexData, type IndexData, type PassageInput } from "@/lib/search/index_data.ts";
import { loadCorpus } from "@/lib/search/manifest.ts";

const ROOT = new URL("../", import.meta.url);

/** Where the site set lives. */
export const SITE_QRELS = fileURLToPath(new URL("tests/fixtures/site_qrels/", ROOT));

/** The query sets of the site set. */
export const SITE_SETS = ["pt", "en", "cross"] as const;

/** One judged visitor question. */
export interface SiteQuery {
  _id: string;
  text: string;
  metadata: { set: typeof SITE_SETS[number]; lang: "pt" | "en" };
}

/** A site's corpus/ cut and indexed as `deno task build` does it. */
export interface SiteIndex {
  passageIds: string[];
  /** The passages indexed (ids, public URLs, text). */
  passages: readonly PassageInput[];
  build(titleWeight?: number): IndexData;
}

/** The site set: our corpus's passages indexed, the questions and their judgements. */
export interface SiteSet extends SiteIndex {
  queries: SiteQuery[];
  qrels: Map<string, Map<string, number>>;
}

/** Load a corpus folder (ours by default) as the build indexes it. */
export async function loadSiteIndex(
  corpusDir = fileURLToPath(new URL("corpus/", ROOT)),
): Promise<SiteIndex> {
  const docs = await loadCorpus(corpusDir);
  const passages = corpusPassages(docs);
  const translations = corpusTranslations(docs);
  const cache = new Map<number | undefined, IndexData>();
  return {
    passageIds: passages.map((p) => p.id),
    passages,
    build(titleWeight?: number) {
      let data = cache.get(titleWeight);
      if (!data) {
        cache.set(titleWeight, data = buildIndexData(passages, { titleWeight, translations }));
      }
      return data;
    },
  };
}

/** Load corpus/ and the judged questions. */
export async function loadSiteSet(
  corpusDir = fileURLToPath(new URL("corpus/", ROOT)),
  dir = SITE_QRELS,
): Promise<SiteSet> {
  const queries = parseJsonl<SiteQuery>(
    readFileSync(`${dir}queries.jsonl`, "utf8"),
    `${dir}queries.jsonl`,
  );
  const qrels = parseQrels(readFileSync(`${dir}qrels/test.tsv`, "utf8"));
  return { ...await loadSiteIndex(corpusDir), queries, qrels };
}

/** Per-query metrics under an engine configuration. */
export interface SiteQueryResult {
  id: string;
  set: string;
  text: string;
  ndcg10: number;
  recall5: number;
  mrr10: number;
  /** 1-based rank of the first relevant passage in the top 100, or null. */
  firstRelevant: number | null;
}

/** Run every question of the set through the engine's lexical ranking. */
export function runSiteQueries(
  set: SiteSet,
  options: EngineOptions = {},
  titleWeight?: number,
): SiteQueryResult[] {
  const engine = new SearchEngine(set.build(titleWeight), options);
  return set.queries.map((q) => {
    const rel = set.qrels.get(q._id) ?? new Map();
    const ids = engine.rankLexical(q.text, 100).ids.map((i) => set.passageIds[i]);
    const first = ids.findIndex((id) => (rel.get(id) ?? 0) > 0);
    return {
      id: q._id,
      set: q.metadata.set,
      text: q.text,
      ndcg10: ndcgAt(ids, rel, 10),
      recall5: recallAt(ids, rel, 5),
      mrr10: mrrAt(ids, rel, 10),
      firstRelevant: first < 0 ? null : first + 1,
    };
  });
}

/** Means per set and overall, rounded to 4 decimals. */
export function summarize(results: SiteQueryResult[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const name of [...SITE_SETS, "all"]) {
    const rs = results.filter((r) => name === "all" || r.set === name);
    const mean = (f: (r: SiteQueryResult) => number) =>
      Number((rs.reduce((a, r) => a + f(r), 0) / (rs.length || 1)).toFixed(4));
    out[name] = {
      "ndcg@10": mean((r) => r.ndcg10),
      "recall@5": mean((r) => r.recall5),
      "mrr@10": mean((r) => r.mrr10),
      queries: rs.length,
    };
  }
  return out;
}
