/**
 * Pseudo-relevance feedback (RM3-style, simplified): the best terms of the top passages
 * of a first pass, by length-normalised frequency times IDF, join the query with a
 * fraction of a query term's weight. It helps when a visitor's words differ from the
 * page's ("valor" for "preço") but the first pass still finds the page.
 */
import { analyze, type Lang } from "./analyzer.ts";

/** Feedback parameters. */
export interface FeedbackParams {
  /** Passages of the first pass used as feedback. */
  docs: number;
  /** Terms added per language. */
  terms: number;
  /** Weight of the best added term, relative to a query term (others scale down). */
  weight: number;
}

/** A feedback passage: its language and text (title and body). */
export interface FeedbackDoc {
  lang: Lang;
  text: string;
}

/** The query's weighted terms with the feedback terms added (a new map per language). */
export function expandQuery(
  query: Partial<Record<Lang, Map<string, number>>>,
  docs: readonly FeedbackDoc[],
  idf: (term: string) => number,
  params: FeedbackParams,
): Partial<Record<Lang, Map<string, number>>> {
  const out: Partial<Record<Lang, Map<string, number>>> = {};
  for (const [lang, terms] of Object.entries(query) as Array<[Lang, Map<string, number>]>) {
    const expanded = new Map(terms);
    out[lang] = expanded;
    const score = new Map<string, number>();
    for (const doc of docs) {
      if (doc.lang !== lang) continue;
      const words = analyze(doc.text, lang);
      if (!words.length) continue;
      for (const t of words) score.set(t, (score.get(t) ?? 0) + 1 / words.length);
    }
    const ranked = [...score]
      .filter(([t]) => !terms.has(t))
      .map(([t, s]): [string, number] => [t, s * idf(t)])
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, params.terms);
    const top = ranked[0]?.[1] ?? 0;
    for (const [t, s] of ranked) if (top > 0) expanded.set(t, params.weight * s / top);
  }
  return out;
}
