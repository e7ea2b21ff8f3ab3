/**
 * Query execution: BM25 and dense rankings fused with RRF, or BM25 alone when
 * there is no usable embedder. Shared by the app (over a loaded asset) and the
 * eval command (over an index built in memory).
 */
import { type SiteWords, TermRepair } from "./term_repair.ts";
import { analyze, codeTerms, fold, isStopword, type Lang, tokenize } from "./analyzer.ts";
import { expandQuery, type FeedbackParams } from "./feedback.ts";
import { askedPart } from "./asked_part.ts";
import {
  askedVerb,
  isQuestionWord,
  leadingModalWord,
  queryTerms,
  type QuestionWordLevel,
  withoutClitics,
} from "./query_terms.ts";
import {
  type Bm25Params,
  Bm25Scorer,
  buildPostings,
  DEFAULT_BM25,
  groupPostings,
  type Prior,
} from "./bm25.ts";
import { DEFAULT_SHORTLIST, DenseScorer } from "./dense.ts";
import type { Embedder } from "./embedder.ts";
import { FIELDS_PER_PASSAGE, type IndexData } from "./index_data.ts";
import { Lru } from "@/lib/lru.ts";
import { rrf } from "./rrf.ts";
import { proximityBonus } from "./proximity.ts";
import type { TopK } from "./top_k.ts";
import { type Lexicon, shippedLexicon, translationGroups } from "./lexicon.ts";
import { stringAt } from "./string_table.ts";
import { entryQuestion, isFaqEntry, type QuestionKind, questionKind } from "./question_kind.ts";
import { langEvidence } from "./detect_lang.ts";
import { LANGS } from "./analyzer.ts";
import type { Passage, SearchOptions, SearchResult, StoredPassage } from "./types.ts";

/** Options of the engine. */
export interface EngineOptions {
  embedder?: Embedder | null;
  bm25?: Bm25Params;
  /** Depth of each ranking fed to RRF (default 100). */
  candidates?: number;
  /** Dense Hamming shortlist (default DEFAULT_SHORTLIST). */
  shortlist?: number;
  /** Query vectors kept (default 256). */
  queryCacheSize?: number;
  /** Called when the embedder fails and the query falls back to lexical. */
  onEmbedError?: (error: unknown) => void;
  /** Question words dropped from queries (default DEFAULT_QUESTION_WORDS). */
  questionWords?: QuestionWordLevel;
  /** Pseudo-relevance feedback; null turns it off (default DEFAULT_FEEDBACK). */
  feedback?: FeedbackParams | null;
  /** Bilingual lexicon: queries also search the other language, fused by RRF. */
  lexicon?: Lexicon | null;
  /**
   * The lexicon questions are translated with when `lexicon` is null, loaded on the first
   * question that needs it (default: the shipped one, null turns it off): on a one-language
   * index, a question in the other language; on a bilingual one, every question, for the
   * pages that have no translation in its language.
   */
  defaultLexicon?: (() => Lexicon) | null;
  /** Weight of the term-proximity bonus on the top passages; 0 turns it off. */
  proximity?: number;
  /** How translated results merge: "scores" (default) or plain "rrf". */
  crossFusion?: "scores" | "rrf";
  /**
   * Weight of the translated ranking's normalised scores on a bilingual index (default
   * BILINGUAL_CROSS_WEIGHT); a one-language index weighs them 1, its only real ranking.
   */
  crossWeight?: number;
  /** Weight of the page-level BM25 score added to each passage's; 0 turns it off. */
  pageWeight?: number;
  /** What a page is scored on: all its text, or its title and headings (default). */
  pageField?: "text" | "headings";
  /**
   * How much an FAQ entry's own question lifts it: [weight of the share of the query's
   * words its question holds, weight of the question being of the same kind]; [0, 0]
   * turns it off (default DEFAULT_ENTRY_QUESTION).
   */
  entryQuestion?: readonly [number, number];
}

/**
 * Most passages whose words the swapped-letters repair lists (lib/search/term_repair.ts):
 * listing 20,000 of 80 words takes about 0.15 s, once, on a two-core machine.
 */
const MAX_WORD_LIST_PASSAGES = 20_000;
/** A word of letters joined by hyphens ("stand-alone"), for the joined-word repair. */
const HYPHENATED = /\p{L}+(?:-\p{L}+)+/gu;

/** The FAQ entry lift by default (see docs/history/benchmarks-diary.md, cross-validated). */
export const DEFAULT_ENTRY_QUESTION: readonly [number, number] = [0.5, 0.2];

/** Passages of the BM25 ranking that the FAQ entry lift reorders. */
export const ENTRY_QUESTION_DEPTH = 30;

/** Page-level weight by default (see docs/history/benchmarks-diary.md, cross-validated). */
export const DEFAULT_PAGE_WEIGHT = 0;

/** Question words dropped from queries by default (see docs/history/benchmarks-diary.md, cross-validated). */
export const DEFAULT_QUESTION_WORDS: QuestionWordLevel = 1;

/** Pseudo-relevance feedback by default (see docs/history/benchmarks-diary.md, cross-validated). */
export const DEFAULT_FEEDBACK: FeedbackParams | null = null;

/** Term-proximity weight by default (see docs/history/benchmarks-diary.md, cross-validated). */
export const DEFAULT_PROXIMITY = 0;

/**
 * How much a page in the other language counts on a bilingual site, reached through the
 * question's translation, against the pages in the visitor's language: a visitor reads their
 * own language best, and the translation's noise should not put a foreign page above one
 * that answers as well. Each step down from 1 trades the pages in one language only for the
 * visitor's own; on two bilingual sites (ours, and the Python FAQ with two thirds of its
 * entries in one language only, three draws) 0.7 costs own-language questions at most 0.01
 * nDCG@10 on average on the FAQ and 0.03 on ours (docs/history/benchmarks-diary.md).
 */
export const BILINGUAL_CROSS_WEIGHT = 0.7;

/** Passages of the BM25 ranking that the proximity bonus reorders. */
export const PROXIMITY_DEPTH = 30;

/** Ranked passage numbers with their per-list ranks, before materialising text. */
export interface RankedIds {
  mode: "hybrid" | "lexical";
  ids: number[];
  scores: number[];
  bm25: Array<number | null>;
  dense: Array<number | null>;
}

/**
 * The languages a query is analysed in. Function words are the evidence: "como
 * funciona o streaming" is Portuguese, so English passages that merely share
 * "stream" do not outrank Portuguese ones. Without evidence (a bare keyword),
 * every language of the index takes part.
 */
export function queryLangs(query: string, langs: readonly Lang[]): Lang[] {
  if (langs.length < 2) return [...langs];
  const tokens = tokenize(query);
  const counts = langs.map((l) => tokens.filter((t) => isStopword(t, l)).length);
  const best = Math.max(...counts);
  if (best === 0) return [...langs];
  return langs.filter((_, i) => counts[i] === best);
}

/**
 * On a bilingual site, the languages to translate a question between, [from, to]: from the one
 * language the question is asked in (`langs`, queryLangs') to the site's other one; null when
 * the question's language is not told. Shared with the Postgres search
 * (lib/search/postgres/lexical_ranking.ts).
 */
export function bilingualPair(
  langs: readonly Lang[],
  siteLangs: readonly Lang[],
): [Lang, Lang] | null {
  const others = siteLangs.filter((l) => !langs.includes(l));
  return others.length === 1 && langs.length === 1 ? [langs[0], others[0]] : null;
}

/**
 * The question's content words translated from `from`, each a group of its senses (a name or
 * code keeps its own spelling among them); its question words and opening modal are left out
 * as they are in its own language. `byStems` on a one-language site (lexicon.ts
 * translationGroups). Shared with the Postgres search (lib/search/postgres/translate.ts).
 */
export function questionTranslation(
  query: string,
  from: Lang,
  lexicon: Lexicon,
  questionWords: QuestionWordLevel,
  byStems: boolean,
): string[][] {
  const lead = leadingModalWord(query, from);
  return translationGroups(
    query,
    from,
    lexicon,
    (t) => isQuestionWord(t, from, questionWords) || t === lead,
    byStems,
  );
}

/**
 * Rankings of two languages merged by how much of its own question each passage matches: each
 * side's scores divided by its `weight` (its query's IDF weight; a translated side's also by
 * its cross weight), a passage found on both sides taking its better share. The first `limit`,
 * best first. Shared with the Postgres search (lib/search/postgres/lexical_ranking.ts).
 */
export function fuseShares<T>(
  sides: ReadonlyArray<{ ids: ArrayLike<T>; scores: ArrayLike<number>; weight: number }>,
  limit: number,
): { ids: T[]; scores: number[] } {
  const best = new Map<T, number>();
  for (const { ids, scores, weight } of sides) {
    for (let i = 0; i < ids.length; i++) {
      const v = scores[i] / weight;
      if (v > (best.get(ids[i]) ?? -1)) best.set(ids[i], v);
    }
  }
  const merged = [...best].sort((a, b) => b[1] - a[1]).slice(0, limit);
  return { ids: merged.map((m) => m[0]), scores: merged.map((m) => m[1]) };
}

/** The search engine over one index. */
export class SearchEngine {
  readonly data: IndexData;
  readonly #bm25: Bm25Scorer;
  readonly #dense: DenseScorer | null;
  readonly #embedder: Embedder | null;
  readonly #candidates: number;
  readonly #cache: Lru<string, Float32Array>;
  readonly #onEmbedError: (error: unknown) => void;
  readonly #langs: Lang[];
  readonly #questionWords: QuestionWordLevel;
  readonly #feedback: FeedbackParams | null;
  readonly #lexicon: Lexicon | null;
  readonly #defaultLexicon: (() => Lexicon) | null;
  readonly #crossFusion: "scores" | "rrf";
  readonly #proximity: number;
  readonly #crossWeight: number;
  readonly #pageWeight: number;
  readonly #pages: { scorer: Bm25Scorer; prior: Prior } | null;
  readonly #entryQuestion: readonly [number, number];
  readonly #entries: Array<EntryQuestion | null | undefined> = [];
  #anyEntry: boolean | undefined;
  #twins: Uint8Array | null | undefined;
  #byId: Map<string, number> | null = null;
  readonly #repair: TermRepair;
  #words: SiteWords | null | undefined;
  #asked: { query: string; lang: Lang } | null = null;
  /** The last question's translation: one search reads it for the ranking, match and result. */
  #translated: { query: string; from: Lang; groups: string[][] } | null = null;

  constructor(data: IndexData, options: EngineOptions = {}) {
    this.data = data;
    this.#bm25 = new Bm25Scorer(data.postings, options.bm25 ?? DEFAULT_BM25);
    this.#langs = this.#bm25.langs.length ? this.#bm25.langs : [...LANGS];
    const emb = options.embedder ?? null;
    // Vectors from another model live in another space: never compare them.
    const usable = emb && data.vectors && data.header.embedding?.model === emb.model;
    this.#embedder = usable ? emb : null;
    this.#dense = usable
      ? new DenseScorer(data.vectors!, options.shortlist ?? DEFAULT_SHORTLIST)
      : null;
    this.#candidates = options.candidates ?? 100;
    this.#cache = new Lru(options.queryCacheSize ?? 256);
    this.#onEmbedError = options.onEmbedError ?? (() => {});
    this.#questionWords = options.questionWords ?? DEFAULT_QUESTION_WORDS;
    this.#feedback = options.feedback === undefined ? DEFAULT_FEEDBACK : options.feedback;
    this.#lexicon = options.lexicon ?? null;
    this.#defaultLexicon = options.defaultLexicon === undefined
      ? shippedLexicon
      : options.defaultLexicon;
    this.#crossFusion = options.crossFusion ?? "scores";
    this.#proximity = options.proximity ?? DEFAULT_PROXIMITY;
    this.#crossWeight = options.crossWeight ?? BILINGUAL_CROSS_WEIGHT;
    this.#pageWeight = options.pageWeight ?? DEFAULT_PAGE_WEIGHT;
    this.#entryQuestion = options.entryQuestion ?? DEFAULT_ENTRY_QUESTION;
    const postings = data.postings;
    this.#repair = new TermRepair({
      terms: postings.terms,
      df: (i) => postings.postOffsets[i + 1] - postings.postOffsets[i],
      passages: postings.docLens.length,
    }, () => this.#textWords());
    this.#pages = this.#pageWeight > 0
      ? this.#pageScorer(options.bm25 ?? DEFAULT_BM25, options.pageField ?? "headings")
      : null;
  }

  /** BM25 over whole pages (a passage id's part before "#"), for the page-level prior. */
  #pageScorer(
    params: Bm25Params,
    field: "text" | "headings",
  ): { scorer: Bm25Scorer; prior: Prior } {
    const n = this.data.header.counts.passages;
    const group = new Uint32Array(n);
    const pages = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const doc = documentOf(stringAt(this.data.strings, i * FIELDS_PER_PASSAGE));
      let g = pages.get(doc);
      if (g === undefined) pages.set(doc, g = pages.size);
      group[i] = g;
    }
    const postings = field === "text"
      ? groupPostings(this.data.postings, group, pages.size)
      : this.#headingPostings(group, pages.size);
    return {
      scorer: new Bm25Scorer(postings, params),
      prior: { group, scores: new Float32Array(pages.size) },
    };
  }

  /** Postings of each page's headings (every distinct heading of its passages' paths). */
  #headingPostings(group: Uint32Array, count: number) {
    const heads = Array.from(
      { length: count },
      () => ({ lang: "pt" as Lang, set: new Set<string>() }),
    );
    for (let i = 0; i < group.length; i++) {
      const p = this.passage(i);
      heads[group[i]].lang = p.lang as Lang;
      for (const h of p.title.split(" › ")) heads[group[i]].set.add(h);
    }
    return buildPostings(heads.map((h) => ({
      lang: h.lang,
      fields: [[analyze([...h.set].join("\n"), h.lang), 1]] as Array<[string[], number]>,
    })));
  }

  /** The page-level prior of a query: each page's BM25 times the page weight. */
  #pagePrior(weighted: Partial<Record<Lang, Map<string, number>>>): Prior | undefined {
    const pages = this.#pages;
    if (!pages) return undefined;
    const { scores } = pages.prior;
    scores.fill(0);
    const top = pages.scorer.searchWeighted(weighted, scores.length);
    for (let i = 0; i < top.ids.length; i++) scores[top.ids[i]] = this.#pageWeight * top.scores[i];
    return pages.prior;
  }

  /** "hybrid" when dense retrieval can take part. */
  get mode(): "hybrid" | "lexical" {
    return this.#dense ? "hybrid" : "lexical";
  }

  /** The query's vector, from the cache or the embedder; null on failure. */
  async #queryVector(query: string, signal?: AbortSignal): Promise<Float32Array | null> {
    const key = query.normalize("NFKC").trim().replace(/\s+/g, " ");
    const hit = this.#cache.get(key);
    if (hit) return hit;
    try {
      const [v] = await this.#embedder!.embed([key], { signal, kind: "query" });
      if (!v || v.length !== this.#dense!.dims) {
        throw new RangeError(
          `Embedder "${this.#embedder!.model}" returned ${
            v?.length ?? 0
          } dimensions, the index has ${this.#dense!.dims}`,
        );
      }
      this.#cache.set(key, v);
      return v;
    } catch (error) {
      if (signal?.aborted) throw error;
      this.#onEmbedError(error);
      return null;
    }
  }

  /**
   * BM25 ranking only (synchronous; used by the evals), as `search` ranks without a query
   * vector: a translated question's two rankings are merged from the same depth, so the top
   * `limit` does not depend on `limit`.
   */
  rankLexical(question: string, limit: number): RankedIds {
    return this.rankWithVector(question, null, limit);
  }

  /** The lexical ranking, `limit` deep, with the query's languages and translation pair read. */
  #rankLexicalIn(
    query: string,
    limit: number,
    langs: readonly Lang[],
    cross: [Lang, Lang] | null,
  ): RankedIds {
    // A question in the other language than a one-language site's is matched on its own words
    // only for names and code: its function words ("o", "com") are words of the site's
    // language too ("I/O", ".com") and matched passages by chance.
    const own = cross && this.#langs.length === 1 ? withoutStopwords(query, cross[0]) : query;
    const top = this.#rankIn(own, langs, limit);
    let ids = Array.from(top.ids);
    let scores = Array.from(top.scores);
    if (cross) {
      const fused = this.#crossLanguage(query, cross[0], cross[1], top, limit);
      if (fused) ({ ids, scores } = fused);
    }
    return {
      mode: "lexical",
      ids,
      scores,
      bm25: ids.map((_, i) => i + 1),
      dense: ids.map(() => null),
    };
  }

  /**
   * The languages to translate a query between, [from, to], or null. On a bilingual index,
   * from the query's language to the other one. On a one-language index, from the query's
   * language when the index has no page in it (a Portuguese question over an English-only
   * site): its own words then match only names and code.
   */
  #crossPair(query: string, langs: readonly Lang[]): [Lang, Lang] | null {
    if (!this.#lexicon && !this.#defaultLexicon) return null;
    if (this.#langs.length === 1) {
      const asked = this.#askedLang(query);
      return asked !== this.#langs[0] ? [asked, this.#langs[0]] : null;
    }
    return bilingualPair(langs, this.#langs);
  }

  /**
   * The language a question over a one-language site is asked in: its function words', else
   * its words' (#lexiconLang). One search reads it three times (the ranking,
   * the match and the result's `translatedFrom`), so the last question's is kept.
   */
  #askedLang(query: string): Lang {
    if (this.#asked?.query !== query) {
      this.#asked = { query, lang: langEvidence(query) ?? this.#lexiconLang(query) };
    }
    return this.#asked.lang;
  }

  /**
   * The language of a question that has no function word of either language ("tupla vs
   * lista?") over a one-language site: the other language when some of its words are not on
   * the site but are words of the other language in the lexicon, the site's otherwise.
   */
  #lexiconLang(query: string): Lang {
    const site = this.#langs[0];
    const other: Lang = site === "pt" ? "en" : "pt";
    const lexicon = this.#translationLexicon();
    for (const token of tokenize(query.slice(0, 500))) {
      if (isStopword(token, site) || !lexicon[other].has(token)) continue;
      if (analyze(token, site).every((t) => !this.#bm25.idf(t))) return other;
    }
    return site;
  }

  /**
   * The query translated into `to` and searched there, merged with the ranking in `from`.
   * Each ranking's BM25 scores are divided by its query's weight (the IDF its words would
   * bring if one passage held them all), so "how much of the question this passage
   * matches" is compared across languages: a Portuguese page matching the whole
   * translated question outranks English passages that share one common word, and a
   * passage in the question's own language keeps its place when it matches as well.
   */
  #crossLanguage(
    query: string,
    from: Lang,
    to: Lang,
    own: { ids: ArrayLike<number>; scores: ArrayLike<number> },
    limit: number,
  ): { ids: number[]; scores: number[] } | null {
    const groups = this.#translationGroups(query, from);
    if (!groups.length) return null;
    // A sense that is a phrase in the target language ("dar um pulo") would match on its
    // parts one by one; only senses that are one index term take part.
    const sets = groups.map((g) =>
      g.map((phrase) => analyze(phrase, to)).filter((a) => a.length === 1).map((a) => a[0])
    );
    let other: { ids: ArrayLike<number>; scores: ArrayLike<number> };
    let otherWeight = 1;
    let otherIdfs: number[] = [];
    if (this.#crossFusion === "rrf") other = this.#rankIn(groups.flat().join(" "), [to], limit);
    else {
      const syn = this.#bm25.searchSynonyms(to, sets, limit);
      other = syn.top;
      otherIdfs = syn.idfs;
      // A word none of whose senses the other language holds counts as the rarest term, as
      // an unmatched word does on the question's own side.
      const rarest = this.#rarestIdf();
      otherWeight = syn.idfs.reduce((sum, idf) => sum + (idf || rarest), 0) || 1;
    }
    if (!other.ids.length) return null;
    other = this.#withoutTwins(other);
    // On a one-language site the translated ranking is the only one, and its FAQ entries
    // get the lift the question's own language would give them; on a bilingual site the
    // entries in the question's language already had it.
    if (this.#langs.length === 1 && this.#crossFusion !== "rrf" && this.#liftsEntries()) {
      other = this.#withTranslatedEntryQuestions(
        { ids: Uint32Array.from(other.ids), scores: Float32Array.from(other.scores) },
        query,
        sets,
        otherIdfs,
        limit,
      );
    }
    if (this.#crossFusion === "rrf") {
      const fused = rrf([own.ids, other.ids]).slice(0, limit);
      return { ids: fused.map((f) => f.id), scores: fused.map((f) => f.score) };
    }
    const ownWeight = this.#queryWeight(
      queryTerms(query, from, this.#questionWords, this.#repair).map((t) => [t]),
    );
    return fuseShares([
      { ...own, weight: ownWeight },
      // On a one-language site the translated ranking is the only real one.
      { ...other, weight: otherWeight / (this.#langs.length === 1 ? 1 : this.#crossWeight) },
    ], limit);
  }

  /**
   * The translated ranking without the passages of documents that have a twin (a declared
   * translation, IndexHeader.translations), which is in the question's language: the
   * visitor's version is the one to read, and its translation would only push the
   * question's other answers down. Pages that exist in one language only stay.
   */
  #withoutTwins(
    other: { ids: ArrayLike<number>; scores: ArrayLike<number> },
  ): { ids: ArrayLike<number>; scores: ArrayLike<number> } {
    const twinned = this.#twinned();
    if (!twinned) return other;
    const ids: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < other.ids.length; i++) {
      if (twinned[other.ids[i]]) continue;
      ids.push(other.ids[i]);
      scores.push(other.scores[i]);
    }
    return { ids, scores };
  }

  /** Per passage, 1 when its document has a translation in the index; built once. */
  #twinned(): Uint8Array | null {
    if (this.#twins !== undefined) return this.#twins;
    const pairs = Object.entries(this.data.header.translations ?? {});
    if (!pairs.length) return this.#twins = null;
    const docs = new Set(pairs.flat());
    const n = this.data.header.counts.passages;
    const twinned = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (docs.has(documentOf(stringAt(this.data.strings, i * FIELDS_PER_PASSAGE)))) {
        twinned[i] = 1;
      }
    }
    return this.#twins = twinned;
  }

  /** What a word the index lacks counts for, a little over the rarest term's IDF. */
  #rarestIdf(): number {
    return Math.log(1 + (this.#bm25.size + 0.5) / 1.5);
  }

  /**
   * The most a query's words can score: per word, the IDF of its best index term (a word
   * the index lacks counts as the rarest), summed.
   */
  #queryWeight(words: string[][]): number {
    const rarest = this.#rarestIdf();
    let sum = 0;
    for (const terms of words) {
      let w = 0;
      for (const t of terms) w = Math.max(w, this.#bm25.idf(t));
      sum += w || rarest;
    }
    return sum || 1;
  }

  /** BM25 (with feedback when configured, then proximity) of a query analysed in `langs`. */
  #rankIn(query: string, langs: readonly Lang[], limit: number): TopK {
    const weighted: Partial<Record<Lang, Map<string, number>>> = {};
    for (const lang of langs) {
      const qtf = new Map<string, number>();
      for (const t of queryTerms(query, lang, this.#questionWords, this.#repair)) {
        qtf.set(t, (qtf.get(t) ?? 0) + 1);
      }
      weighted[lang] = qtf;
    }
    const lift = this.#liftsEntries();
    const depth = Math.max(
      limit,
      this.#proximity > 0 ? PROXIMITY_DEPTH : 0,
      lift ? ENTRY_QUESTION_DEPTH : 0,
    );
    let top = this.#bm25.searchWeighted(weighted, depth, this.#pagePrior(weighted));
    const fb = this.#feedback;
    if (fb && top.ids.length) {
      const docs = Array.from(top.ids.subarray(0, fb.docs), (i) => {
        const p = this.passage(i);
        return { lang: p.lang as Lang, text: `${p.title}\n${p.text}` };
      });
      top = this.#bm25.searchWeighted(
        expandQuery(weighted, docs, (t) => this.#bm25.idf(t), fb),
        depth,
      );
    }
    top = this.#withProximity(top, weighted, depth);
    return lift ? this.#withEntryQuestions(top, query, weighted, limit) : sliceTop(top, limit);
  }

  /** Whether the FAQ entry lift is on and has entries to lift. */
  #liftsEntries(): boolean {
    return (this.#entryQuestion[0] > 0 || this.#entryQuestion[1] > 0) && this.#hasEntries();
  }

  /** Whether any passage is an FAQ entry (read once): without one, the lift has no work. */
  #hasEntries(): boolean {
    if (this.#anyEntry === undefined) {
      this.#anyEntry = false;
      for (let i = 0; i < this.data.header.counts.passages && !this.#anyEntry; i++) {
        this.#anyEntry = isFaqEntry(stringAt(this.data.strings, i * FIELDS_PER_PASSAGE + 1));
      }
    }
    return this.#anyEntry;
  }

  /**
   * Passage `id` as an FAQ entry (its question's index terms and kind), or null when its
   * heading is no question; read once per passage, on the first query that ranks it.
   */
  #entryOf(id: number): EntryQuestion | null {
    const cached = this.#entries[id];
    if (cached !== undefined) return cached;
    const title = stringAt(this.data.strings, id * FIELDS_PER_PASSAGE + 1);
    let entry: EntryQuestion | null = null;
    if (isFaqEntry(title)) {
      const lang = LANGS[this.data.postings.docLangs[id]] ?? "pt";
      const question = entryQuestion(title);
      entry = { lang, terms: new Set(analyze(question, lang)), kind: questionKind(question) };
    }
    return this.#entries[id] = entry;
  }

  /**
   * The top passages with FAQ entries lifted by their own question: an entry whose question
   * holds the visitor's words, or asks the same kind of thing ("why" for "why"), is the
   * unit written to answer it. Its BM25 score is multiplied by 1 + a · share + b · kind,
   * the share being the query's IDF weight found in the entry's question.
   */
  #withEntryQuestions(
    top: TopK,
    query: string,
    weighted: Partial<Record<Lang, Map<string, number>>>,
    limit: number,
  ): TopK {
    // The query's words and their IDF, once per language rather than once per passage.
    const rarest = this.#rarestIdf();
    const words = new Map<Lang, { terms: string[]; idfs: number[]; total: number }>();
    const wordsIn = (lang: Lang) => {
      let w = words.get(lang);
      if (!w) {
        const terms = [...(weighted[lang]?.keys() ?? [])];
        const idfs = terms.map((t) => this.#bm25.idf(t) || rarest);
        w = { terms, idfs, total: idfs.reduce((x, y) => x + y, 0) };
        words.set(lang, w);
      }
      return w;
    };
    return this.#liftEntries(top, questionKind(query), limit, (entry) => {
      const { terms, idfs, total } = wordsIn(entry.lang);
      let found = 0;
      for (let j = 0; j < terms.length; j++) if (entry.terms.has(terms[j])) found += idfs[j];
      return total > 0 ? found / total : 0;
    });
  }

  /**
   * The entry lift of a translated query: a word counts as found in an entry's question
   * when one of its translations is there, with the weight the translated ranking gave it.
   */
  #withTranslatedEntryQuestions(
    top: TopK,
    query: string,
    sets: readonly string[][],
    idfs: readonly number[],
    limit: number,
  ): TopK {
    const rarest = this.#rarestIdf();
    const weights = sets.map((_, i) => idfs[i] || rarest);
    const total = weights.reduce((x, y) => x + y, 0);
    return this.#liftEntries(top, questionKind(query), limit, (entry) => {
      let found = 0;
      sets.forEach((set, i) => {
        if (set.some((t) => entry.terms.has(t))) found += weights[i];
      });
      return total > 0 ? found / total : 0;
    });
  }

  /**
   * The head of a ranking reordered by the entry lift: 1 + a · share(entry) + b when the
   * entry's question is of the query's kind.
   */
  #liftEntries(
    top: TopK,
    kind: QuestionKind,
    limit: number,
    share: (entry: EntryQuestion) => number,
  ): TopK {
    const [a, b] = this.#entryQuestion;
    // Only the head of the ranking is lifted: an entry further down is not the answer.
    const head = Math.min(top.ids.length, ENTRY_QUESTION_DEPTH);
    const order = Array.from({ length: head }, (_, i) => i);
    const lifted = new Float32Array(head);
    for (let i = 0; i < head; i++) {
      const entry = this.#entryOf(top.ids[i]);
      let factor = 1;
      if (entry) factor += a * share(entry) + (kind !== "other" && entry.kind === kind ? b : 0);
      lifted[i] = top.scores[i] * factor;
    }
    order.sort((x, y) => lifted[y] - lifted[x] || top.ids[x] - top.ids[y]);
    const n = Math.min(limit, top.ids.length);
    const ids = new Uint32Array(n);
    const scores = new Float32Array(n);
    for (let r = 0; r < n; r++) {
      ids[r] = r < head ? top.ids[order[r]] : top.ids[r];
      scores[r] = r < head ? lifted[order[r]] : top.scores[r];
    }
    return { ids, scores };
  }

  /** The top passages reordered by BM25 plus the proximity bonus of the query's terms. */
  #withProximity(
    top: TopK,
    weighted: Partial<Record<Lang, Map<string, number>>>,
    limit: number,
  ): TopK {
    if (this.#proximity <= 0) return top;
    const idf: Partial<Record<Lang, Map<string, number>>> = {};
    for (const [lang, qtf] of Object.entries(weighted) as Array<[Lang, Map<string, number>]>) {
      idf[lang] = new Map([...qtf.keys()].map((t) => [t, this.#bm25.idf(t)]));
    }
    const scored = Array.from(top.ids, (id, i) => {
      const p = this.passage(id);
      const terms = idf[p.lang as Lang];
      const bonus = terms ? proximityBonus(terms, [p.title, p.text], p.lang as Lang) : 0;
      return [id, top.scores[i] + this.#proximity * bonus] as const;
    }).sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
    return {
      ids: Uint32Array.from(scored, (s) => s[0]),
      scores: Float32Array.from(scored, (s) => s[1]),
    };
  }

  /** Fused ranking given a query vector (or lexical when it is null). */
  rankWithVector(question: string, vector: ArrayLike<number> | null, limit: number): RankedIds {
    const query = withoutClitics(question);
    // Alone, the lexical ranking needs no candidates past the limit; a fusion (RRF, or the
    // lexicon's merge of two languages) reads deeper.
    const langs = queryLangs(query, this.#langs);
    const cross = this.#crossPair(query, langs);
    const alone = (!vector || !this.#dense) && !cross;
    const depth = alone ? limit : Math.max(this.#candidates, limit);
    const lexical = this.#rankLexicalIn(query, depth, langs, cross);
    if (!vector || !this.#dense) {
      return {
        ...lexical,
        ids: lexical.ids.slice(0, limit),
        scores: lexical.scores.slice(0, limit),
      };
    }
    const dense = this.#dense.search(vector, Math.max(this.#candidates, limit));
    const fused = rrf([lexical.ids, dense.ids]).slice(0, limit);
    return {
      mode: "hybrid",
      ids: fused.map((f) => f.id),
      scores: fused.map((f) => f.score),
      bm25: fused.map((f) => f.ranks[0]),
      dense: fused.map((f) => f.ranks[1]),
    };
  }

  /** Ranked passage numbers for a query. */
  async rank(query: string, limit: number, signal?: AbortSignal): Promise<RankedIds> {
    const vector = this.#dense && query.trim() ? await this.#queryVector(query, signal) : null;
    return this.rankWithVector(query, vector, limit);
  }

  /**
   * The public search: passages with text, numbered when they have a URL. A message that holds
   * a question standing on its own is searched by that question (./asked_part.ts).
   */
  async search(message: string, options: SearchOptions = {}): Promise<SearchResult> {
    const query = askedPart(message);
    const k = Math.max(0, Math.floor(options.k ?? 5));
    const ranked = await this.rank(query, k, options.signal);
    const { match, heading } = this.#matcher(withoutClitics(query));
    const cross = this.#crossPair(query, queryLangs(query, this.#langs));
    let n = 0;
    const passages = ranked.ids.map((id, i): Passage => {
      const p = this.passage(id);
      return {
        ...(p.url ? { n: ++n } : {}),
        ...p,
        score: ranked.scores[i],
        match: match(id),
        heading: heading(id),
        ranks: { bm25: ranked.bm25[i], dense: ranked.dense[i] },
      };
    });
    if (!cross) return { mode: ranked.mode, passages };
    const words = this.#translationGroups(query, cross[0]);
    return {
      mode: ranked.mode,
      passages,
      // On a one-language site the question's language is none of the site's.
      ...(this.#langs.length === 1 ? { translatedFrom: cross[0] } : {}),
      ...(words.length ? { translation: { from: cross[0], to: cross[1], words } } : {}),
    };
  }

  /**
   * How much of a query a passage and the site hold (0–1): the mean of two shares of the
   * query's IDF weight, the one whose words the passage's title or text holds and the one
   * whose words the index holds at all (a word the index lacks counts as the rarest term).
   * Unlike a BM25 score it is comparable across queries and sites, so the offline model's
   * "not covered" gate reads it: an off-topic question's rare words ("pizza") are found
   * nowhere, a covered one's are on the site even when paraphrased. A passage in another
   * language than the query is matched through the lexicon's translations (and the words
   * themselves, for names and code).
   */
  #matcher(query: string): { match: (id: number) => number; heading: (id: number) => number } {
    const cross = this.#crossPair(query, queryLangs(query, this.#langs));
    const rarest = this.#rarestIdf();
    const verb = askedVerb(query);
    // Per language, once per query: each query word's candidate terms, its weight (its best
    // term's IDF, or the rarest for a word the index lacks) and whether the index has it.
    const byLang = new Map<Lang, { groups: string[][]; weights: number[]; known: number }>();
    const groupsIn = (lang: Lang) => {
      let entry = byLang.get(lang);
      if (entry) return entry;
      let groups: string[][];
      if (!cross || cross[1] !== lang) {
        const terms = queryTerms(query, lang, this.#questionWords, this.#repair);
        groups = [...new Set(terms)].map((t) => [t]);
      } else {
        groups = this.#translationGroups(query, cross[0])
          .map((g) => [...new Set(g.flatMap((phrase) => analyze(phrase, lang)))]);
      }
      let known = 0;
      const weights = groups.map((terms) => {
        const w = Math.max(0, ...terms.map((t) => this.#bm25.idf(t)));
        known += w;
        // A verb the visitor chose ("Como clono…", "How do I dedupe…") names the site's
        // action in other words: unknown to the site, it is no sign of an off-topic
        // question, whose unknown words are its subject ("pizza").
        if (!w && terms.some((t) => verb.has(t))) return 0;
        return w || rarest;
      });
      byLang.set(lang, entry = { groups, weights, known });
      return entry;
    };
    const shareKnown = (e: { weights: number[]; known: number }) => {
      const total = e.weights.reduce((sum, w) => sum + w, 0);
      return total > 0 ? e.known / total : 0;
    };
    let ownShare: number | undefined;
    const match = (id: number) => {
      const lang = LANGS[this.data.postings.docLangs[id]] ?? "pt";
      const { groups, weights, known } = groupsIn(lang);
      let found = 0;
      let total = 0;
      groups.forEach((terms, i) => {
        total += weights[i];
        if (terms.some((t) => this.#bm25.has(t, id))) found += weights[i];
      });
      // Half the passage's share, half the site's: a visitor's paraphrase misses the
      // passage's words but not the site's, an off-topic question misses both.
      if (!(total > 0)) return 0;
      let siteShare = known / total;
      // On a bilingual site the visitor's words are looked for in their own language too: the
      // translation's many senses meet common words of the other side by chance ("What is your
      // customer service phone number?" → "serviço", "número"), while a page in one language
      // only is about what the site's pages in the other also name.
      if (cross && this.#langs.length > 1 && lang === cross[1]) {
        siteShare = Math.min(siteShare, ownShare ??= shareKnown(groupsIn(cross[0])));
      }
      return Number(((found / total + siteShare) / 2).toFixed(3));
    };
    // The share of the query's weight the passage's own heading holds: how much of the
    // question the section, by its name, is about (a related question's test, search_site.ts).
    const heading = (id: number) => {
      const lang = LANGS[this.data.postings.docLangs[id]] ?? "pt";
      const { groups, weights } = groupsIn(lang);
      const own = new Set(analyze(entryQuestion(this.passage(id).title), lang));
      let found = 0;
      let total = 0;
      groups.forEach((terms, i) => {
        total += weights[i];
        if (terms.some((t) => own.has(t))) found += weights[i];
      });
      return total > 0 ? Number((found / total).toFixed(3)) : 0;
    };
    return { match, heading };
  }

  /**
   * The folded words of every passage's title and text, for the swapped-letters repair: read
   * on the first query word that needs them, and never on a site too large to list them
   * quickly (then swapped letters are not repaired).
   */
  #textWords(): SiteWords | null {
    if (this.#words !== undefined) return this.#words;
    const n = this.data.header.counts.passages;
    if (n > MAX_WORD_LIST_PASSAGES) return this.#words = null;
    const words = new Set<string>();
    const compounds = new Map<string, string[]>();
    for (let i = 0; i < n; i++) {
      const base = i * FIELDS_PER_PASSAGE;
      for (const field of [base + 1, base + 3]) {
        const text = stringAt(this.data.strings, field);
        for (const w of tokenize(text)) words.add(w);
        for (const c of fold(text).match(HYPHENATED) ?? []) {
          const parts = c.split("-");
          compounds.set(parts.join(""), parts);
        }
      }
    }
    return this.#words = { words, compounds };
  }

  /** `questionTranslation` with this engine's lexicon and settings, kept for the last question. */
  #translationGroups(query: string, from: Lang): string[][] {
    const last = this.#translated;
    if (last?.query === query && last.from === from) return last.groups;
    const groups = questionTranslation(
      query,
      from,
      this.#translationLexicon(),
      this.#questionWords,
      this.#langs.length === 1,
    );
    this.#translated = { query, from, groups };
    return groups;
  }

  /** The lexicon a question is translated with (only called once #crossPair found a pair). */
  #translationLexicon(): Lexicon {
    return this.#lexicon ?? this.#defaultLexicon!();
  }

  /** The stored fields of the passage with this id, or null when there is none. */
  passageById(id: string): StoredPassage | null {
    if (!this.#byId) {
      // Built on the first lookup: only turns that resolve internal references pay for it.
      this.#byId = new Map();
      for (let i = 0; i < this.data.header.counts.passages; i++) {
        this.#byId.set(stringAt(this.data.strings, i * FIELDS_PER_PASSAGE), i);
      }
    }
    const i = this.#byId.get(id);
    return i === undefined ? null : this.passage(i);
  }

  /** The stored fields of passage `i`. */
  passage(
    i: number,
  ): StoredPassage {
    const s = this.data.strings;
    const base = i * FIELDS_PER_PASSAGE;
    return {
      id: stringAt(s, base),
      title: stringAt(s, base + 1),
      url: stringAt(s, base + 2) || null,
      lang: LANGS[this.data.postings.docLangs[i]] ?? "pt",
      text: stringAt(s, base + 3),
    };
  }
}

/** An FAQ entry's own question, as the lift reads it. */
interface EntryQuestion {
  lang: Lang;
  terms: Set<string>;
  kind: QuestionKind;
}

/** The query's words less the stopwords of `lang`, in their order, then its operators. */
function withoutStopwords(query: string, lang: Lang): string {
  return [...tokenize(query).filter((t) => !isStopword(t, lang)), ...codeTerms(query)].join(" ");
}

/** The first `limit` of a ranking. */
function sliceTop(top: TopK, limit: number): TopK {
  return top.ids.length <= limit
    ? top
    : { ids: top.ids.subarray(0, limit), scores: top.scores.subarray(0, limit) };
}

/** The document a passage belongs to: its id's part before "#". */
function documentOf(passageId: string): string {
  const hash = passageId.indexOf("#");
  return hash < 0 ? passageId : passageId.slice(0, hash);
}
