/**
 * BEIR file readers (corpus.jsonl, queries.jsonl, qrels .tsv) and the ranking
 * metrics the eval command reports.
 */

/** A BEIR corpus document. */
export interface BeirDoc {
  _id: string;
  title?: string;
  text: string;
}

/** Parse JSON lines, naming the file and line of a bad one. */
export function parseJsonl<T>(text: string, file: string): T[] {
  const out: T[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      throw new SyntaxError(`Line ${i + 1} of "${file}" is not JSON: fix or remove it`);
    }
  });
  return out;
}

/** Parse BEIR qrels: `query-id  corpus-id  score`, with an optional header. */
export function parseQrels(text: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  for (const line of text.split("\n")) {
    const [q, d, s] = line.trim().split("\t");
    if (!q || !d || q === "query-id") continue;
    const score = Number(s ?? 1);
    if (!(score > 0)) continue;
    let m = qrels.get(q);
    if (!m) qrels.set(q, m = new Map());
    m.set(d, score);
  }
  return qrels;
}

/** nDCG@k with graded gains (2^rel − 1). */
export function ndcgAt(ranked: readonly string[], rel: Map<string, number>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    const g = rel.get(id) ?? 0;
    if (g > 0) dcg += (2 ** g - 1) / Math.log2(i + 2);
  });
  const ideal = [...rel.values()].sort((a, b) => b - a).slice(0, k);
  let idcg = 0;
  ideal.forEach((g, i) => idcg += (2 ** g - 1) / Math.log2(i + 2));
  return idcg > 0 ? dcg / idcg : 0;
}

/** Reciprocal rank of the first relevant result within k. */
export function mrrAt(ranked: readonly string[], rel: Map<string, number>, k: number): number {
  const i = ranked.slice(0, k).findIndex((id) => (rel.get(id) ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Fraction of the relevant documents found within k. */
export function recallAt(ranked: readonly string[], rel: Map<string, number>, k: number): number {
  if (!rel.size) return 0;
  return ranked.slice(0, k).filter((id) => (rel.get(id) ?? 0) > 0).length / rel.size;
}

/** The p-th percentile (0..100) of a sample, nearest-rank. */
export function percentile(sample: readonly number[], p: number): number {
  if (!sample.length) return 0;
  const sorted = [...sample].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1))];
}
