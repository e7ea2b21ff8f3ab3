/**
 * Term proximity, computed at query time on the best BM25 passages only (the index keeps
 * no positions): query words that occur close together ("publicar … site" within a few
 * words) are evidence that the passage talks about what the question asks, not about
 * each word separately. A BM25TP-style bonus (Rasolofo & Savoy, 2003): every pair of
 * distinct query terms within `WINDOW` words adds 1/distance², saturated, times the
 * rarer term's IDF.
 */
import { analyze, type Lang } from "./analyzer.ts";

/** Largest distance, in index terms, that counts as "close". */
export const WINDOW = 5;

/**
 * The proximity bonus of one passage: `fields` are its texts (title, body) analysed
 * apart, so the last title word is not "next to" the first body word.
 */
export function proximityBonus(
  idf: ReadonlyMap<string, number>,
  fields: readonly string[],
  lang: Lang,
): number {
  if (idf.size < 2) return 0;
  const pair = new Map<string, number>(); // "a\tb" → Σ 1/d²
  for (const text of fields) {
    const recent: Array<[string, number]> = []; // query terms seen in the last WINDOW positions
    analyze(text, lang).forEach((term, pos) => {
      if (!idf.has(term)) return;
      while (recent.length && pos - recent[0][1] > WINDOW) recent.shift();
      for (const [other, at] of recent) {
        if (other === term) continue;
        const key = other < term ? `${other}\t${term}` : `${term}\t${other}`;
        pair.set(key, (pair.get(key) ?? 0) + 1 / (pos - at) ** 2);
      }
      recent.push([term, pos]);
    });
  }
  let bonus = 0;
  for (const [key, tpi] of pair) {
    const [a, b] = key.split("\t");
    bonus += Math.min(idf.get(a)!, idf.get(b)!) * tpi / (1 + tpi);
  }
  return bonus;
}
