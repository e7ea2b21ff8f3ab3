/**
 * How alike two questions are by their words: the Jaccard index of their stemmed content terms
 * (the search analyzer's), no model. The gaps page groups questions with it; the owner's answers
 * given by a page lift that page only for questions alike to the wording they were given for.
 */
import { analyze, type Lang } from "./analyzer.ts";

/** The content terms of a question; the folded text when it has none ("e aí?"). */
export function questionTerms(question: string, lang: Lang): Set<string> {
  const terms = analyze(question, lang);
  return new Set(terms.length ? terms : [question.toLowerCase().trim()]);
}

/** The Jaccard index of two term sets (0 when both are empty). */
export function termOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}
