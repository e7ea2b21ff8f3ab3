/**
 * BM25 over compact postings: one sorted term list, and per term a slice of
 * `postDocs` (passage numbers, ascending) and `postTfs` (field-weighted term
 * frequencies). k1 and b are applied at query time, so they stay tunable
 * without re-indexing.
 */
import { type Lang, LANGS } from "./analyzer.ts";
import { type TopK, topK } from "./top_k.ts";

/** BM25 parameters. */
export interface Bm25Params {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation, 0..1. */
  b: number;
  /**
   * Shortest length, as a fraction of the average, that length normalisation credits: a
   * passage shorter than this is scored as if it were this long, so a 20-word passage
   * is not lifted over a full section for holding the same words (default 0: off).
   */
  minLen?: number;
}

/**
 * Defaults chosen on FaQuAD (scripts/eval.ts, a grid over k1 ∈ {0.6, 0.9, 1.2, 1.5, 2},
 * b ∈ {0.3, 0.5, 0.75, 0.9, 1} and title weight 0..3): nDCG@10 is flat (0.914–0.916)
 * over k1 0.9–1.5 and b 0.75–1, so the textbook 1.2/0.75 is kept rather than a
 * noisy argmax that would not carry to unseen sites.
 */
export const DEFAULT_BM25: Bm25Params = { k1: 1.2, b: 0.75 };

/** The postings as stored in the asset. */
export interface Postings {
  /** Sorted unique terms (JS string order). */
  terms: string[];
  /** `terms.length + 1` offsets into postDocs/postTfs. */
  postOffsets: Uint32Array;
  postDocs: Uint32Array;
  postTfs: Float32Array;
  /** Field-weighted length of each passage. */
  docLens: Float32Array;
  /** Index into LANGS of each passage. */
  docLangs: Uint8Array;
}

/** One passage's analysed fields, as the builder takes them. */
export interface FieldTerms {
  lang: Lang;
  /** [terms, weight] per field, e.g. title ×2 and body ×1. */
  fields: Array<[string[], number]>;
}

/** Build postings from analysed passages (passage number = array index). */
export function buildPostings(passages: FieldTerms[]): Postings {
  const perTerm = new Map<string, number[]>(); // flat [doc, tf, doc, tf, …]
  const docLens = new Float32Array(passages.length);
  const docLangs = new Uint8Array(passages.length);
  const tf = new Map<string, number>();
  passages.forEach((p, doc) => {
    tf.clear();
    let len = 0;
    for (const [terms, weight] of p.fields) {
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + weight);
      len += terms.length * weight;
    }
    docLens[doc] = len;
    docLangs[doc] = LANGS.indexOf(p.lang);
    for (const [t, f] of tf) {
      let list = perTerm.get(t);
      if (!list) perTerm.set(t, list = []);
      list.push(doc, f);
    }
  });
  const terms = [...perTerm.keys()].sort();
  let total = 0;
  for (const t of terms) total += perTerm.get(t)!.length / 2;
  const postOffsets = new Uint32Array(terms.length + 1);
  const postDocs = new Uint32Array(total);
  const postTfs = new Float32Array(total);
  let at = 0;
  terms.forEach((t, i) => {
    postOffsets[i] = at;
    const list = perTerm.get(t)!;
    for (let j = 0; j < list.length; j += 2) {
      postDocs[at] = list[j];
      postTfs[at] = list[j + 1];
      at++;
    }
  });
  postOffsets[terms.length] = at;
  return { terms, postOffsets, postDocs, postTfs, docLens, docLangs };
}

/** Binary search of a term; -1 when absent. */
export function termId(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = terms[mid];
    if (t === term) return mid;
    if (t < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Query-time BM25 scorer; reuses its scratch buffers between queries. */
/** BM25's inverse document frequency of a term in `df` of `n` passages (always positive). */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export class Bm25Scorer {
  readonly #p: Postings;
  readonly #params: Bm25Params;
  readonly #avgLen: number;
  /** Per passage: k1 · (1 − b + b · len / avg), the length part of BM25's denominator. */
  readonly #norm: Float32Array;
  readonly #scores: Float32Array;
  readonly #touched: Uint32Array;
  readonly #seen: Uint8Array;
  readonly #langs: Set<number>;

  constructor(postings: Postings, params: Bm25Params = DEFAULT_BM25) {
    this.#p = postings;
    this.#params = params;
    const n = postings.docLens.length;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += postings.docLens[i];
    this.#avgLen = n ? sum / n : 1;
    const { k1, b } = params;
    const floor = (params.minLen ?? 0) * this.#avgLen;
    this.#norm = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      this.#norm[i] = k1 * (1 - b + b * Math.max(postings.docLens[i], floor) / this.#avgLen);
    }
    this.#scores = new Float32Array(n);
    this.#touched = new Uint32Array(n);
    this.#seen = new Uint8Array(n);
    this.#langs = new Set(postings.docLangs);
  }

  /** Inverse document frequency of a term (0 when absent). */
  idf(term: string): number {
    const id = termId(this.#p.terms, term);
    if (id < 0) return 0;
    const n = this.#p.docLens.length;
    const df = this.#p.postOffsets[id + 1] - this.#p.postOffsets[id];
    return bm25Idf(n, df);
  }

  /** Whether passage `doc` holds `term` (a binary search of the term's postings). */
  has(term: string, doc: number): boolean {
    const id = termId(this.#p.terms, term);
    if (id < 0) return false;
    const docs = this.#p.postDocs;
    let lo = this.#p.postOffsets[id];
    let hi = this.#p.postOffsets[id + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (docs[mid] === doc) return true;
      if (docs[mid] < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Number of passages scored. */
  get size(): number {
    return this.#p.docLens.length;
  }

  /** Languages present in the index. */
  get langs(): Lang[] {
    return [...this.#langs].map((i) => LANGS[i]);
  }

  /**
   * Score passages for query terms given per language: the terms analysed as
   * language L only score passages written in L, so a mixed pt/en site needs
   * no language detection and each language keeps its own stemming.
   */
  search(termsByLang: Partial<Record<Lang, string[]>>, limit: number): TopK {
    const weighted: Partial<Record<Lang, Map<string, number>>> = {};
    for (const [lang, qterms] of Object.entries(termsByLang) as Array<[Lang, string[]]>) {
      const qtf = new Map<string, number>();
      for (const t of qterms) qtf.set(t, (qtf.get(t) ?? 0) + 1);
      weighted[lang] = qtf;
    }
    return this.searchWeighted(weighted, limit);
  }

  /**
   * Scores for query words given as synonym sets in one language (a word's translations),
   * as Pirkola's structured queries do: a set counts as one term whose frequency in a
   * passage is the sum of its members' and whose document frequency is the number of
   * passages in `lang` holding any member. A rare, wrong sense then adds little (the set's
   * IDF is that of its common sense), and a word with three senses counts once.
   * Returns the ranking and each set's IDF (0 for a set no passage holds).
   */
  searchSynonyms(
    lang: Lang,
    sets: readonly string[][],
    limit: number,
  ): { top: TopK; idfs: number[] } {
    const { terms, postOffsets, postDocs, postTfs, docLangs } = this.#p;
    const { k1 } = this.#params;
    const n = this.#p.docLens.length;
    const li = LANGS.indexOf(lang);
    const total = new Float32Array(n);
    const touched = new Uint32Array(n);
    const inAll = new Uint8Array(n);
    let count = 0;
    const idfs: number[] = [];
    for (const set of sets) {
      const tf = new Map<number, number>();
      for (const t of new Set(set)) {
        const id = termId(terms, t);
        if (id < 0) continue;
        for (let j = postOffsets[id]; j < postOffsets[id + 1]; j++) {
          const d = postDocs[j];
          if (docLangs[d] === li) tf.set(d, (tf.get(d) ?? 0) + postTfs[j]);
        }
      }
      const df = tf.size;
      const idf = df ? bm25Idf(n, df) : 0;
      idfs.push(idf);
      for (const [d, f] of tf) {
        if (!inAll[d]) (inAll[d] = 1, touched[count++] = d);
        total[d] += idf * (f * (k1 + 1)) / (f + this.#norm[d]);
      }
    }
    return { top: topK(touched, count, total, limit), idfs };
  }

  /**
   * Like `search`, with a weight per query term (pseudo-relevance feedback adds fractions).
   * With a prior, every matched passage also gets its group's score (its page's, say).
   */
  searchWeighted(
    termsByLang: Partial<Record<Lang, Map<string, number>>>,
    limit: number,
    prior?: Prior,
  ): TopK {
    const { terms, postOffsets, postDocs, postTfs, docLens, docLangs } = this.#p;
    const { k1 } = this.#params;
    const norm = this.#norm;
    const scores = this.#scores;
    const touched = this.#touched;
    const seen = this.#seen;
    const n = docLens.length;
    const mixed = this.#langs.size > 1;
    let count = 0;
    for (const [lang, qtf] of Object.entries(termsByLang) as Array<[Lang, Map<string, number>]>) {
      const li = LANGS.indexOf(lang);
      if (!this.#langs.has(li)) continue;
      for (const [t, q] of qtf) {
        const id = termId(terms, t);
        if (id < 0) continue;
        const start = postOffsets[id];
        const end = postOffsets[id + 1];
        const df = end - start;
        const idf = bm25Idf(n, df) * q;
        for (let j = start; j < end; j++) {
          const d = postDocs[j];
          if (mixed && docLangs[d] !== li) continue;
          const f = postTfs[j];
          const w = idf * (f * (k1 + 1)) / (f + norm[d]);
          if (seen[d] === 0) {
            seen[d] = 1;
            scores[d] = w;
            touched[count++] = d;
          } else scores[d] += w;
        }
      }
    }
    if (prior) {
      for (let i = 0; i < count; i++) scores[touched[i]] += prior.scores[prior.group[touched[i]]];
    }
    const top = topK(touched, count, scores, limit);
    for (let i = 0; i < count; i++) seen[touched[i]] = 0;
    return top;
  }
}

/** A score added to every matched passage from its group (e.g. its page). */
export interface Prior {
  /** Group number of each passage. */
  group: Uint32Array;
  /** Score of each group. */
  scores: Float32Array;
}

/**
 * Postings of groups of passages (pages): a group's term frequency and length are its
 * passages' sums, its language its first passage's.
 */
export function groupPostings(p: Postings, group: Uint32Array, groups: number): Postings {
  const docLens = new Float32Array(groups);
  const docLangs = new Uint8Array(groups);
  const seen = new Uint8Array(groups);
  for (let d = 0; d < p.docLens.length; d++) {
    docLens[group[d]] += p.docLens[d];
    if (!seen[group[d]]) (seen[group[d]] = 1, docLangs[group[d]] = p.docLangs[d]);
  }
  const postOffsets = new Uint32Array(p.terms.length + 1);
  const docs: number[] = [];
  const tfs: number[] = [];
  const acc = new Map<number, number>();
  for (let t = 0; t < p.terms.length; t++) {
    postOffsets[t] = docs.length;
    acc.clear();
    for (let j = p.postOffsets[t]; j < p.postOffsets[t + 1]; j++) {
      const g = group[p.postDocs[j]];
      acc.set(g, (acc.get(g) ?? 0) + p.postTfs[j]);
    }
    for (const g of [...acc.keys()].sort((a, b) => a - b)) (docs.push(g), tfs.push(acc.get(g)!));
  }
  postOffsets[p.terms.length] = docs.length;
  return {
    terms: p.terms,
    postOffsets,
    postDocs: Uint32Array.from(docs),
    postTfs: Float32Array.from(tfs),
    docLens,
    docLangs,
  };
}
