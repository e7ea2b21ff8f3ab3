/**
 * Query words the index lacks, spelled the way the site spells them. Visitors drop or add a
 * version digit ("SQLite" where the page says "sqlite3", "python3" for "python") and glue
 * the "e" of "e-mail" on ("email"; the tokenizer splits the page's "e-mail" into "e" and
 * "mail"). Each makes a word the index has look absent, so a covered question ranks badly
 * and reads as off-topic. Only words the index lacks are repaired, so a query whose words
 * the site has ranks exactly as before, and each repair needs the other spelling in the
 * index's own vocabulary.
 *
 * Visitors also swap two neighbouring letters ("pyhton", "prorgamei"), drop one ("lingagem")
 * or type one twice ("linguuagem"): such a word is read as the one word of the site's text that
 * the swap back, the letter put back or the doubled letter taken out gives. The check is on the
 * text's words, not on stems: stems of swapped words collide with other words ("abrem" →
 * "barem" → "bar", "filme" → "filem" → "fil").
 *
 * A word the page writes with a hyphen ("stand-alone", "pós-graduação") is often typed as one
 * ("standalone"): such a word is read as the parts of the site's hyphenated word it joins.
 * Only the query side changes: indexing the joined form too lowered FaQuAD.
 *
 * Tried and left out (docs/history/benchmarks-diary.md): one-typo repair of stems, a changed or
 * an extra letter put right, a dropped letter in any five-letter word, and splitting off a
 * glued function word ("mylist"): they mostly found other words ("sorteio" → "sorted",
 * "defeito" → "efeito", "frete" → "frente", "today" → "to" + "day") and let off-topic
 * questions through.
 */
import { isStopword, type Lang, stem } from "./analyzer.ts";
import { termId } from "./bm25.ts";

/** What a repair reads of the index: its sorted term list and each term's passage count. */
export interface Vocabulary {
  /** Sorted unique terms (JS string order). */
  readonly terms: readonly string[];
  /** Passages holding `terms[i]`. */
  df(i: number): number;
  /** How many passages the index has, when known. */
  readonly passages?: number;
}

/** The words of the site's text a repair checks against (lib/search/engine.ts lists them). */
export interface SiteWords {
  /** Every folded word of the titles and texts. */
  readonly words: ReadonlySet<string>;
  /** Each hyphenated word, joined ("standalone"), to its folded parts ("stand", "alone"). */
  readonly compounds: ReadonlyMap<string, readonly string[]>;
}

/** Shortest word whose swapped letters are repaired: shorter ones swap into other words. */
const MIN_SWAPPED = 5;

/** Shortest word a dropped letter is put back in (one less for a word on many passages). */
const MIN_EDITED = 6;

/** Shortest function word ("qundo", "shoud") a dropped letter is recognised in. */
const MIN_FUNCTION_TYPO = 4;

/** Share of the site's passages a word is on for its five-letter typo to be read as it. */
const FREQUENT_SHARE = 0.05;

/**
 * Longest word a typo is looked for in: no word of a site is longer, and the candidates grow
 * with the square of the length (a 2,000-letter token took half a second).
 */
const MAX_TYPO_LENGTH = 32;

/** The letters a typo drops, as folded words spell them. */
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The prefix a visitor glues to a word where the page writes it with a hyphen ("e-mail"). */
const GLUED_PREFIXES = new Set(["e"]);

/** Shortest word part a split may yield: shorter ones match by chance. */
const MIN_PART = 3;

/** The index terms a query word the index lacks stands for. */
export class TermRepair {
  readonly #vocab: Vocabulary;
  readonly #words: (() => SiteWords | null) | null;
  readonly #memo = new Map<string, string[] | null>();

  /**
   * `words` gives the words of the site's text (read only when a swap or a joined word is worth
   * checking), or null when the site is too large to list them: then neither is repaired.
   */
  constructor(vocab: Vocabulary, words: (() => SiteWords | null) | null = null) {
    this.#vocab = vocab;
    this.#words = words;
  }

  /** Whether the index has `term`. */
  has(term: string): boolean {
    return termId(this.#vocab.terms, term) >= 0;
  }

  /**
   * The index terms a folded query `token` of `lang` stands for when its stem is not in the
   * index: a version digit dropped or added, the "e" of "e-mail" glued on or left off, a
   * hyphenated word typed as one, two neighbouring letters swapped, a letter dropped or typed
   * twice; null when it needs none or nothing fits.
   */
  repair(token: string, lang: Lang): string[] | null {
    const key = `${lang}:${token}`;
    if (this.#memo.has(key)) return this.#memo.get(key)!;
    const own = stem(token, lang);
    const found = this.has(own)
      ? null
      : this.#digits(token, lang) ?? this.#prefixed(token, lang) ?? this.#joined(token, lang) ??
        this.#swapped(token, lang) ?? this.#dropped(token, lang) ?? this.#doubled(token, lang);
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

  /** "standalone" → "stand", "alone" where the site writes "stand-alone". */
  #joined(token: string, lang: Lang): string[] | null {
    if (!this.#words || token.length < 2 * MIN_PART || !/^\p{L}+$/u.test(token)) return null;
    const parts = this.#words()?.compounds.get(token);
    if (!parts) return null;
    const terms = parts.map((w) => stem(w, lang)).filter((t) => this.has(t));
    return terms.length ? [...new Set(terms)] : null;
  }

  /**
   * "pyhton" → "python": the term of the one word of the site's text that swapping two
   * neighbouring letters back gives; null when none or several do.
   */
  #swapped(token: string, lang: Lang): string[] | null {
    if (!this.#words || !typoLength(token, MIN_SWAPPED)) return null;
    const candidates: string[] = [];
    for (let i = 0; i + 1 < token.length; i++) {
      if (token[i] === token[i + 1]) continue;
      const word = token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2);
      // The cheap test first: most swaps give no term at all, and the words are read lazily.
      if (this.has(stem(word, lang))) candidates.push(word);
    }
    if (!candidates.length) return null;
    const words = this.#words()?.words;
    const real = new Set(candidates.filter((w) => words?.has(w)).map((w) => stem(w, lang)));
    return real.size === 1 ? [...real] : null;
  }

  /**
   * A word typed with one letter dropped: "lingagem" → "linguagem", "instalr" → "instalar", the
   * term of the one word of the site's text that putting a letter back gives; null when none or
   * several do. Only six letters or more, or five for a word on many of the site's passages
   * ("pyhon" → "python"): shorter ones are one letter from too many others ("frete" →
   * "frente", "banco" → "branco"). A function word so typed ("qundo", "shoud") is left out, as
   * the word itself would be, rather than weighed as a word the site lacks.
   */
  #dropped(token: string, lang: Lang): string[] | null {
    if (!this.#words || !typoLength(token, MIN_FUNCTION_TYPO)) return null;
    // The text's words first: a set lookup per candidate, where a stem each would cost 26 per
    // letter of the token.
    const words = token.length >= MIN_EDITED - 1 ? this.#words()?.words : undefined;
    const real = new Set<string>();
    let functionWord = false;
    for (let i = 0; i <= token.length; i++) {
      for (const letter of LETTERS) {
        const word = token.slice(0, i) + letter + token.slice(i);
        if (isStopword(word, lang)) functionWord = true;
        else this.#addTextTerm(real, word, words, lang);
      }
    }
    if (real.size > 1) return null;
    const [term] = real;
    if (term && (token.length >= MIN_EDITED || this.#frequent(term))) return [term];
    return functionWord ? [] : null;
  }

  /**
   * A letter typed twice ("linguuagem" → "linguagem", "pythonn" → "python"): the term of the one
   * word of the site's text that one letter of a doubled pair taken out gives; null when none
   * or several do. Only six letters or more, like a dropped letter; any letter taken out was
   * tried and read off-topic words as the site's ("defeito" → "efeito").
   */
  #doubled(token: string, lang: Lang): string[] | null {
    if (!this.#words || !typoLength(token, MIN_EDITED)) return null;
    const words = this.#words()?.words;
    const real = new Set<string>();
    for (let i = 1; i < token.length; i++) {
      if (token[i] !== token[i - 1]) continue;
      this.#addTextTerm(real, token.slice(0, i) + token.slice(i + 1), words, lang);
    }
    return real.size === 1 ? [...real] : null;
  }

  /** Adds `word`'s term to `terms` when `word` is a word of the site's text and the index's. */
  #addTextTerm(
    terms: Set<string>,
    word: string,
    words: ReadonlySet<string> | undefined,
    lang: Lang,
  ): void {
    if (!words?.has(word)) return;
    const term = stem(word, lang);
    if (this.has(term)) terms.add(term);
  }

  /** Whether `term` is on a large share of the site's passages (false when that is unknown). */
  #frequent(term: string): boolean {
    const passages = this.#vocab.passages;
    const i = termId(this.#vocab.terms, term);
    return passages !== undefined && i >= 0 && this.#vocab.df(i) >= FREQUENT_SHARE * passages;
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

/** Whether `token` is a word of letters whose length a typo is looked for in. */
function typoLength(token: string, min: number): boolean {
  return token.length >= min && token.length <= MAX_TYPO_LENGTH && /^\p{L}+$/u.test(token);
}
