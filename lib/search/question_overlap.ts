/**
 * How alike two questions are by their words: the Jaccard index of their stemmed content terms
 * (the search analyzer's), no model. The gaps page groups questions with it; the owner's answers
 * given by a page lift that page only for questions alike to the wording they were given for.
 */
import { analyze, fold, type Lang, tokenize } from "./analyzer.ts";

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

/**
 * Shortest word read as a word of the wording one typo away: two neighbouring letters swapped
 * ("linugagem") from five letters, one letter dropped, added or replaced ("orignal") from six.
 * Shorter words one letter apart are often other words ("pagar"/"apagar", "cont"/"cost").
 */
const SWAP_LETTERS = 5;
const EDIT_LETTERS = 6;

/**
 * The likeness of a visitor's `question` to an owner's `wording` (the Jaccard index of their
 * terms) with each word of the question that the wording lacks, but holds one typo away,
 * read as the wording's word: a visitor who types "Como clono um objeto sem mexer no
 * oriignal?" asks the wording "…no original?". Only toward the wording, and only with the
 * same first letter (typos rarely hit it, and "pagar"/"apagar" differ there).
 */
export function wordingOverlap(question: string, wording: string, lang: Lang): number {
  const words = new Set(tokenize(wording));
  const repairs = new Map<string, string>();
  for (const t of tokenize(question)) {
    const meant = words.has(t) ? null : oneTypoFrom(t, words);
    if (meant) repairs.set(t, meant);
  }
  // Word for word in the text as typed, so that its code ("a[-1]") reads as before.
  const read = repairs.size
    ? question.replace(/[\p{L}\p{N}]+/gu, (w) => repairs.get(fold(w)) ?? w)
    : question;
  return termOverlap(questionTerms(read, lang), questionTerms(wording, lang));
}

/** The one word of `words` that `token` is a typo of, or null (none, or more than one). */
function oneTypoFrom(token: string, words: ReadonlySet<string>): string | null {
  let found: string | null = null;
  for (const w of words) {
    if (w[0] !== token[0] || !oneTypoApart(token, w)) continue;
    if (found) return null;
    found = w;
  }
  return found;
}

/** Whether `a` and `b` are one swap of neighbours, or one letter dropped, added or replaced, apart. */
function oneTypoApart(a: string, b: string): boolean {
  const shorter = Math.min(a.length, b.length);
  if (a.length === b.length) {
    const diffs: number[] = [];
    for (let i = 0; i < a.length && diffs.length <= 2; i++) if (a[i] !== b[i]) diffs.push(i);
    if (diffs.length === 1) return shorter >= EDIT_LETTERS;
    return diffs.length === 2 && diffs[1] === diffs[0] + 1 && shorter >= SWAP_LETTERS &&
      a[diffs[0]] === b[diffs[1]] && a[diffs[1]] === b[diffs[0]];
  }
  if (Math.abs(a.length - b.length) !== 1 || shorter + 1 < EDIT_LETTERS) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}
