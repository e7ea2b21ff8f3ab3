/**
 * Query words the index lacks, spelled the way the site spells them. Visitors drop or add a
 * version digit ("SQLite" where the page says "sqlite3", "python3" for "python") and glue
 * the "e" of "e-mail" on ("email"; the tokenizer splits the page's "e-mail" into "e" and
 * "mail"). Each makes a word the index has look absent, so a covered question ranks badly
 * and reads as off-topic. Only words the index lacks are repaired, so a query whose words
 * the site has ranks exactly as before, and each repair needs the other spelling in the
 * index's own vocabulary.
 *
 * Tried and left out (docs/history/benchmarks-diary.md): one-typo repair of stems, and
 * splitting off a glued function word ("mylist"): on stems both mostly found other words
 * ("sorteio" → "sorted", "today" → "to" + "day") and let off-topic questions through.
 */
import { type Lang, stem } from "./analyzer.ts";
import { termId } from "./bm25.ts";

/** What a repair reads of the index: its sorted term list and each term's passage count. */
export interface Vocabulary {
  /** Sorted unique terms (JS string order). */
  readonly terms: readonly string[];
  /** Passages holding `terms[i]`. */
  df(i: number): number;
}

/** The prefix a visitor glues to a word where the page writes it with a hyphen ("e-mail"). */
const GLUED_PREFIXES = new Set(["e"]);

/** Shortest word part a split may yield: shorter ones match by chance. */
const MIN_PART = 3;

/** The index terms a query word the index lacks stands for. */
export class TermRepair {
  readonly #vocab: Vocabulary;
  readonly #memo = new Map<string, string[] | null>();

  constructor(vocab: Vocabulary) {
    this.#vocab = vocab;
  }

  /** Whether the index has `term`. */
  has(term: string): boolean {
    return termId(this.#vocab.terms, term) >= 0;
  }

  /**
   * The index terms a folded query `token` of `lang` stands for when its stem is not in the
   * index: a version digit dropped or added, or the "e" of "e-mail" glued on or left off;
   * null when it needs none or nothing fits.
   */
  repair(token: string, lang: Lang): string[] | null {
    const key = `${lang}:${token}`;
    if (this.#memo.has(key)) return this.#memo.get(key)!;
    const own = stem(token, lang);
    const found = this.has(own) ? null : this.#digits(token, lang) ?? this.#prefixed(token, lang);
    if (this.#memo.size < 10_000) this.#memo.set(key, found);
    return found;
  }

  /** "python3" → "python"; "sqlite" → "sqlite3" (the most frequent such term). */
  #digits(token: string, lang: Lang): string[] | null {
    const versioned = /^(\p{L}{2,})\d+$/u.exec(token);
    if (versioned) {
      const base = stem(versioned[1], lang);
      return this.has(base) ? [base] : null;
    }
    if (!/^\p{L}{2,}$/u.test(token)) return null;
    const terms = this.#vocab.terms;
    let best = -1;
    // In the sorted list every "<token><digit>…" lies from "<token>0" to before "<token>:"
    // (":" follows "9"), so only those terms are read, however large the vocabulary.
    const end = this.#lowerBound(`${token}:`);
    for (let i = this.#lowerBound(`${token}0`); i < end; i++) {
      if (!/^\d+$/.test(terms[i].slice(token.length))) continue;
      if (best < 0 || this.#vocab.df(i) > this.#vocab.df(best)) best = i;
    }
    return best < 0 ? null : [terms[best]];
  }

  /**
   * "email" → "mail" where the page writes "e-mail" (or "mail"), and "mail" → "email" where
   * it writes "email".
   */
  #prefixed(token: string, lang: Lang): string[] | null {
    for (const prefix of GLUED_PREFIXES) {
      const joined = stem(prefix + token, lang);
      if (token.length >= MIN_PART && this.has(joined)) return [joined];
      if (!token.startsWith(prefix) || token.length - prefix.length < MIN_PART) continue;
      const rest = stem(token.slice(prefix.length), lang);
      if (this.has(rest)) return [rest];
    }
    return null;
  }

  /** The first index in the sorted terms not before `term`. */
  #lowerBound(term: string): number {
    const terms = this.#vocab.terms;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (terms[mid] < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
