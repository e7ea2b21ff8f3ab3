/**
 * The offline model's text craft: language detection (pt / en), accent folding,
 * stopwords, and the extractive answer built from search passages.
 */

import { charClass, trimEndRun } from "@/lib/text/scan.ts";
import { definitionHead, definitionSubject } from "./definition_cue.ts";
import { type AnswerLang, detectLang, fold, langEvidence } from "@/lib/search/detect_lang.ts";
import { faqAnswerSentences, isFaqEntry, REASON } from "./faq_answer.ts";
import { nearestPages } from "./nearest_pages.ts";
import { entryQuestion } from "@/lib/search/question_kind.ts";
import { quoteBrackets } from "./quote_brackets.ts";
import { endsWithCommand, isBareLine, PROMPT, sentences } from "./sentences.ts";
import { contentTerms, questionTerms } from "./terms.ts";
import { translatedTerms } from "./translated_terms.ts";
import type { SearchTranslation } from "@/lib/protocol/ui_message.ts";

export { type AnswerLang, contentTerms, detectLang, fold, sentences };

/** A passage as `search_site` returns it (see lib/search/types.ts). */
export interface AnswerPassage {
  n?: number;
  title: string;
  url: string | null;
  text: string;
  score: number;
  /** Share of the question's weight the passage holds, when the search says (0–1). */
  match?: number;
}

export interface Candidate {
  text: string;
  n: number;
  passage: number;
  position: number;
  /** The sentence's question terms. */
  matched: Set<string>;
  /** Its content terms, for redundancy checks. */
  terms: Set<string>;
  /** Share of the question's IDF weight the sentence covers (0–1). */
  coverage: number;
  words: number;
  score: number;
}

/**
 * Least share of the question's IDF weight a runner-up sentence covers on its own to be quoted
 * beside the best one (FaQuAD, docs/history/benchmarks-diary.md).
 */
const RUNNER_UP_COVERAGE = 0.3;

/**
 * Most words of the best sentence and the one after it together. 40, with the runner-up
 * rule below: the words a following sentence no longer takes go to the runner-up, which
 * holds the gold more often (FaQuAD, docs/history/benchmarks-diary.md).
 */
const PAIR_WORDS = 40;
/**
 * A sentence that opens by pointing back ("Por isso", "Essa máquina", "Cada uma dessas
 * opções", "This", "Such"): the closed class of demonstratives, pronouns and connectives that
 * refer to the sentence before. A subject pronoun counts only before a space ("Ela é…"); "of
 * this", "for this" within the first words too ("A principal razão para isto é…").
 */
const ANAPHORIC =
  /^\s*(?:(?:por isso|assim(?=,)|dessa forma|desse modo|deste modo|com isso|nel[ae]s?|dess[ae]s?|dest[ae]s?|cada uma? dess[ae]s|isso|isto|ess[ae]s?|est[ae]s?|tal|tais|it|this|these|that|those|such|thus)\b|(?:ele|ela|eles|elas|he|she|they)\s|(?:\S+\s+){1,3}(?:disto|disso|para isto|para isso|for this|for that|of this|of that)\b)/iu;

/** Most words of a pair whose second sentence holds the kind of answer the first lacks. */
const KIND_PAIR_WORDS = 100;
/**
 * Most words of the sentence before a pointing-back one, that one and the one after: the
 * next still follows when the three are short (FaQuAD: 0.8567 → 0.8589 at 38.9 → 39.1 words).
 */
const ANAPHORA_WORDS = 55;
/**
 * Most words of a best sentence that points back and the one before it, which it needs
 * ("Esta ferramenta mantém…" after "…delegada ao comando mini-dinstall."): as for a next one
 * that points back. 40, the plain pair's room, left out the handbook's tool; 60 cost FaQuAD.
 */
const ANAPHORA_PREV_WORDS = 50;
/**
 * Most words of the best sentence and a next one that points back to it. Picked on FaQuAD's
 * even-numbered questions among 50–80 (0.8667 → 0.8689), the odd ones unchanged (0.8511).
 */
const ANAPHORA_NEXT_WORDS = 50;

/**
 * Score gap under which the runner-up sentence is quoted too (when it also covers
 * MIN_COVERAGE of the question on its own), and the pair's word limit. Chosen on FaQuAD's
 * even-numbered questions and checked on the odd ones (docs/history/benchmarks-diary.md).
 */
const RUNNER_UP_GAP = 0.2;
const RUNNER_UP_WORDS = 80;

/** Bonus of a sentence that defines what a "what is X?" question asks about. */
const DEFINITION_WEIGHT = 0.2;

/** How many top passages to quote from by default. */
const MAX_PASSAGES = 4;

/**
 * Weight of the passage's search rank in a sentence's score (0.2 / (rank + 1)): on FaQuAD,
 * picked on 4 of 5 folds each time (docs/history/benchmarks-diary.md), against 0.1 before.
 */
const RANK_WEIGHT = 0.2;

/** The "not covered" answer's first sentence, which every refusal starts with. */
const NOT_COVERED_LEAD: Record<AnswerLang, string> = {
  pt: "O site não tem informação sobre isso.",
  en: "The site does not cover that.",
};

const OFFER: Record<AnswerLang, string> = {
  pt: "Posso procurar outro assunto do site?",
  en: "Can I look up something else on the site?",
};

/** The "not covered" answer in a language. */
export function notCoveredAnswer(lang: AnswerLang): string {
  return `${NOT_COVERED_LEAD[lang]} ${OFFER[lang]}`;
}

/** Whether an answer is the offline model's "not covered", with or without the closest pages. */
export function isNotCoveredAnswer(text: string): boolean {
  return Object.values(NOT_COVERED_LEAD).some((lead) => text.startsWith(lead));
}

/** Options of {@linkcode buildExtractiveAnswer}. */
export interface ExtractiveOptions {
  /** How many top passages to quote from (default 4). */
  maxPassages?: number;
  /**
   * Most words of the best sentence and the one after it together (default 40): the
   * following sentence is added only when both fit, so answers stay short on average.
   */
  pairWords?: number;
  /**
   * The language of a question with no word of either language (the visitor's earlier
   * messages'); without it, the language of the pages found.
   */
  fallbackLang?: AnswerLang;
  /** The search's translation of the question, when it also looked in the other language. */
  translation?: SearchTranslation;
  /** The gate's least `match` (default MIN_MATCH); `deno task eval:gate` tries others. */
  minMatch?: number;
  /** The gate's least sentence coverage (default MIN_COVERAGE); `eval:gate` tries others. */
  minCoverage?: number;
}

/**
 * Builds the offline answer: the sentence of the numbered passages that answers the
 * question best, in quotation marks and followed by `[N]`, and the sentence after it when both are
 * short enough (the answer to a question that restates one sentence is often in the
 * next), or else a runner-up that scores close to it. Unnumbered (internal) passages are
 * never quoted. Returns the "not covered"
 * sentence when nothing overlaps the question meaningfully.
 *
 * @example
 * ```ts
 * buildExtractiveAnswer("Onde a Ana trabalha?", [{ n: 1, title: "Sobre", url: "/sobre", text: "A Ana trabalha em Lisboa.", score: 1 }]);
 * // "“A Ana trabalha em Lisboa.” [1]"
 * ```
 */
export function buildExtractiveAnswer(
  question: string,
  passages: AnswerPassage[],
  options: ExtractiveOptions = {},
): string {
  const queryTerms = questionTerms(question);
  // Only numbered passages (public pages) may be quoted to a visitor; an internal one is
  // context for a real model, and quoting it would publish what has no public page.
  const quotable = passages.filter((p): p is AnswerPassage & { n: number } =>
    typeof p.n === "number" && p.url !== null
  );
  // A question with no word of either language ("GIL?", "tkinter vs Qt?") is answered in the
  // fallback language (the visitor's earlier messages, or the interface's), else in the
  // language of the pages the search found.
  const pagesLang = detectLang(passages.map((p) => p.text).join(" ").slice(0, 2000), "pt");
  const own = langEvidence(question);
  const lang = own ?? options.fallbackLang ?? pagesLang;
  if (queryTerms.size === 0 || quotable.length === 0) return notCoveredAnswer(lang);
  if (!searchFound(quotable, options.minMatch ?? MIN_MATCH)) {
    return refusal(question, lang, quotable);
  }
  const ways = readings(queryTerms, quotable, lang, own, options.translation);
  // The calibrated pair holds where the search vouched for its passages (their `match`); a
  // search that reports none leaves the sentences alone to show the site covers the question.
  const vouched = quotable.some((p) => typeof p.match === "number");
  const least = options.minCoverage ?? (vouched ? MIN_COVERAGE : CONFIDENT_COVERAGE);
  // A sentence that holds much of the question, read either way, beats a weak one read the first
  // way ("Are failed model calls retried?" on a bilingual site: the Portuguese page says so;
  // an English page's sentence only shares "model" and "calls").
  const scored = new Map<Reading, Candidate[]>();
  const candidatesOf = (way: Reading) => {
    let found = scored.get(way);
    if (!found) {
      const deep = options.maxPassages ?? MAX_PASSAGES;
      scored.set(way, found = scoreSentences(question, way.pool, deep, way.readingOf));
    }
    return found;
  };
  for (const bar of least < CONFIDENT_COVERAGE ? [CONFIDENT_COVERAGE, least] : [least]) {
    for (const way of ways) {
      const top = way.pool.reduce((a, b) => (b.score > a.score ? b : a));
      const quoted = isFaqEntry(top.title)
        ? faqAnswer(question, top)
        : sentenceAnswer(question, candidatesOf(way), { ...options, minCoverage: bar });
      if (quoted) return withLanguageNote(quoted, lang, quotable);
    }
  }
  return refusal(question, lang, quotable);
}

/** Passages an answer may quote from, all read one way against the question. */
interface Reading {
  pool: Array<AnswerPassage & { n: number }>;
  readingOf: (p: AnswerPassage) => TermReading;
}

/**
 * Where the answer comes from, in the order to try: one language at a time, so an answer never
 * mixes them. "OpenAI?" on a bilingual site is answered from the pages in the answer's language
 * when the search found some: a quote from the other one would say "only in English" untruly.
 * When the search ranked first a page in the other language, found through the question's
 * translation (a page in one language only), the pages in that language come first, read with
 * the translated words (the visitor's own share none of their words), and the visitor's
 * language's pages second, for when those hold no sentence that answers; else the other way.
 */
function readings(
  queryTerms: Set<string>,
  quotable: Array<AnswerPassage & { n: number }>,
  lang: AnswerLang,
  own: AnswerLang | null,
  translation: SearchTranslation | undefined,
): Reading[] {
  const pool = own ? quotable : inLang(quotable, lang);
  const plain = ownReading(queryTerms);
  const asked: Reading = { pool, readingOf: () => plain };
  const translated = translation && translation.to !== lang ? translatedTerms(translation) : null;
  if (!translated) return [asked];
  const other = pool.filter((p) => detectLang(p.text, translation!.to) === translation!.to);
  if (!other.length) return [asked];
  // Names and code are written alike in both languages ("fresh.config.ts", "OpenAI"); the
  // question's other words are on none of these pages, and would only count against each.
  const onPages = contentTerms(other.map((p) => `${p.title} ${p.text}`).join(" "));
  const names = [...queryTerms].filter((t) => onPages.has(t));
  const read: TermReading = {
    terms: new Set([...translated.terms, ...names]),
    canon: translated.canon,
  };
  const across: Reading = { pool: other, readingOf: () => read };
  const mine: Reading = { pool: pool.filter((p) => !other.includes(p)), readingOf: () => plain };
  const first = pool.reduce((a, b) => (b.score > a.score ? b : a));
  return (other.includes(first) ? [across, mine] : [mine, across]).filter((r) => r.pool.length);
}

/** The passages in `lang`, or all of them when none is. */
function inLang<P extends AnswerPassage>(passages: P[], lang: AnswerLang): P[] {
  const found = passages.filter((p) => detectLang(p.text, lang) === lang);
  return found.length ? found : passages;
}

/** "Not covered", then the pages found closest to the question, when some are close. */
function refusal(
  question: string,
  lang: AnswerLang,
  quotable: ReadonlyArray<AnswerPassage & { n: number }>,
): string {
  const nearest = nearestPages(question, quotable, lang);
  return nearest ? `${NOT_COVERED_LEAD[lang]} ${nearest} ${OFFER[lang]}` : notCoveredAnswer(lang);
}

/**
 * Least `match` of the best passage (the mean of the question's weight it holds and the site
 * holds) for the site to count as covering the question. Calibrated by `deno task eval:gate`
 * on held-out folds of covered and off-topic questions in both languages (docs/history/benchmarks-diary.md).
 */
export const MIN_MATCH = 0.54;

/**
 * Least share of the question's IDF weight that the best sentence of plain passages (not an FAQ
 * entry's answer) covers for the site to count as answering: the gate's second half, for a
 * question whose words the best passage holds in different sentences. Calibrated with MIN_MATCH
 * by `deno task eval:gate` (0.15, picked on the calibration sets together; 0.3 before, on FaQuAD
 * alone, and refused a manual's visitors 0.21–0.38 of their covered questions).
 */
export const MIN_COVERAGE = 0.15;

/**
 * Coverage at which a sentence answers with confidence: tried in every reading of the question
 * before a weaker one, down to MIN_COVERAGE, is quoted from the first; and the whole gate when
 * the search reports no `match` (another search, results saved before it had one).
 */
const CONFIDENT_COVERAGE = 0.3;

/**
 * Whether the search found the question on the site: the best passage's `match` when the
 * search reports it; without it (another search, older saved results), the sentence
 * coverage below decides.
 */
function searchFound(quotable: readonly AnswerPassage[], minMatch: number): boolean {
  const matches = quotable.map((p) => p.match).filter((m): m is number => typeof m === "number");
  return !matches.length || Math.max(...matches) >= minMatch;
}

/** The answer of an FAQ entry, quoted with its number; null when it has no sentence. */
function faqAnswer(question: string, entry: AnswerPassage & { n: number }): string | null {
  const chosen = faqAnswerSentences(question, entry.text, entryQuestion(entry.title));
  if (!chosen.length) return null;
  return chosen.map((text) => `“${tidy(text)}”`).join(" ") + ` [${entry.n}]`;
}

/**
 * The sentence answer over plain passages (their sentences scored): the one that answers the
 * question best, and the sentence after it when both are short enough (the answer to a
 * question that restates one sentence is often in the next), or else a runner-up that scores
 * close to it; null when nothing overlaps the question meaningfully.
 */
function sentenceAnswer(
  question: string,
  candidates: readonly Candidate[],
  options: ExtractiveOptions,
): string | null {
  let best: Candidate | undefined;
  let coverage = 0;
  for (const c of candidates) {
    if (!best || c.score > best.score) best = c;
    coverage = Math.max(coverage, c.coverage);
  }
  // A FAQ answer holds none of its question's words: they are in its heading, which counts.
  if (!best || best.coverage <= 0 || coverage < (options.minCoverage ?? MIN_COVERAGE)) {
    return null;
  }
  const chosen = [best];
  const prev = candidates.find((c) =>
    c.passage === best.passage && c.position === best.position - 1
  );
  const next = candidates.find((c) =>
    c.passage === best.passage && c.position === best.position + 1
  );
  // "Por isso, Lovelace é considerada a primeira programadora.": what "isso" stands for, often
  // the name asked, is in the sentence before, which goes first.
  if (prev && ANAPHORIC.test(best.text) && prev.words + best.words <= ANAPHORA_PREV_WORDS) {
    const out = [prev, best];
    const words = prev.words + best.words + (next?.words ?? 0);
    if (next && words <= ANAPHORA_WORDS && !redundant(next, best)) out.push(next);
    return out.map((c) => `“${tidy(c.text)}” [${c.n}]`).join(" ");
  }
  const pair = options.pairWords ?? PAIR_WORDS;
  // "Por que…?" restated by the best sentence: the reason is often the next one ("Isso porque…").
  const kind = askedKind(question);
  const kindNext = next && kind !== null && !answerKind(kind, best.text) &&
    answerKind(kind, next.text) === 1 && best.words + next.words <= KIND_PAIR_WORDS;
  // A next sentence that points back ("Trata-se de…") goes on with the best one's subject.
  const nextRoom = ANAPHORIC.test(next?.text ?? "") ? Math.max(pair, ANAPHORA_NEXT_WORDS) : pair;
  if (next && (kindNext || best.words + next.words <= nextRoom) && !redundant(next, best)) {
    chosen.push(next);
  } else {
    // A runner-up close to the best, from any of the passages, that would answer on its own
    // too: quote both when short enough (the best one often only restates the question).
    const second = runnerUp(candidates, best);
    if (
      second && best.score - second.score <= RUNNER_UP_GAP &&
      second.coverage >= RUNNER_UP_COVERAGE && best.words + second.words <= RUNNER_UP_WORDS &&
      !redundant(second, best)
    ) chosen.push(second);
  }
  // Quotation marks say "the site's words", as the old lead-in did, without its 3 words.
  return chosen.map((c) => `“${tidy(c.text)}” [${c.n}]`).join(" ");
}

const OTHER_LANGUAGE: Record<AnswerLang, Record<AnswerLang, string>> = {
  pt: { pt: "", en: "O site trata disso só em inglês:" },
  en: { en: "", pt: "The site covers this in Portuguese only:" },
};

/** The same, when the search also found pages in the visitor's language that did not answer. */
const OTHER_LANGUAGE_PAGES: Record<AnswerLang, Record<AnswerLang, string>> = {
  pt: { pt: "", en: "Nas páginas do site em inglês:" },
  en: { en: "", pt: "From the site's pages in Portuguese:" },
};

/**
 * The quote, introduced in the visitor's language when the quoted page is in the other one
 * (a Portuguese question answered from an English-only page says so before quoting it).
 * "Only in English" is said only when the search found no page in the visitor's language: on
 * a bilingual site the English FAQ can outrank a Portuguese page that covers it too.
 */
function withLanguageNote(
  quoted: string,
  lang: AnswerLang,
  quotable: readonly AnswerPassage[],
): string {
  const cited = new Set([...quoted.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  const texts = quotable.filter((p) => cited.has(p.n!)).map((p) => p.text).join(" ");
  const pageLang = detectLang(texts, lang);
  if (pageLang === lang) return quoted;
  // Read only for a quote in the other language: most answers quote the visitor's own.
  const ownFound = quotable.some((p) => detectLang(p.text, lang) === lang);
  return `${(ownFound ? OTHER_LANGUAGE_PAGES : OTHER_LANGUAGE)[lang][pageLang]} ${quoted}`;
}

/** A question that asks which tool, command, program or package does something. */
const TOOL_ASKED =
  /\b(?:qual|quais|que|algum|alguma|which|what|any|a)\s+(?:o\s+|a\s+)?(?:comandos?|ferramentas?|programas?|pacotes?|utilit[aá]rios?|aplicativos?|commands?|tools?|programs?|packages?|utilit(?:y|ies)|apps?)\b/iu;
/**
 * A sentence that names one: the word "command", "program"… beside a name in lower case ("o
 * comando mini-dinstall", "the dirvish program"), or a command with an option ("netstat -tupan").
 */
const TOOL_NAMED =
  /\b[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*-(?!(?:se|lo|la|los|las|nos|lhe|lhes|me|te)\b)[a-z0-9]+\b|\b[a-z][\w.+-]*\s+(?:command|program|tool|package|utility)\b|\b[a-z][\w.+-]*\s+--?[a-z]/u;
/** A question that asks which file or where a file is. */
const FILE_ASKED =
  /\b(?:qual|que|which|what)\s+(?:o\s+)?(?:arquivos?|diret[oó]rios?|pastas?|files?|director(?:y|ies)|folders?)\b|\b(?:onde|where)\b[^?!.]{0,80}?\b(?:arquivo|diret[oó]rio|pasta|log|file|directory|folder)s?\b/iu;

/**
 * What a question asks for, and the sentence text that can hold it: a date or number, a
 * reason, a purpose, a name (read from the question's first words), a tool or a file (read
 * anywhere in it). A sentence of the right kind that holds some of the question gets a small
 * bonus.
 */
const ANSWER_KINDS: Array<[RegExp, RegExp]> = [
  [
    /^\s*(quando|em que (ano|data|s[eé]culo|d[eé]cada|per[ií]odo)|when|what year)\b/i,
    /\d|s[eé]culo|century/i,
  ],
  [
    /^\s*((por|em) quanto tempo|quant[oa]s?|how (many|much|long))\b|qual (o|a) (quantidade|n[uú]mero|valor|porcentagem|percentual|prazo|dura[cç][aã]o)/i,
    /\d|%|\b(um|uma|dois|duas|tr[eê]s|quatro|cinco|seis|sete|oito|nove|dez|one|two|three|four|five|six|seven|eight|nine|ten)\b/i,
  ],
  [
    /^\s*(por ?que|porque|why)\b/i,
    REASON,
  ],
  [
    /^\s*(para que|qual (o|a) (objetivo|finalidade|fun[cç][aã]o|utilidade|prop[oó]sito)|what for)\b/i,
    /\b(para|visa|objetivo|finalidade|a fim de|serve|servem|in order to|aims?)\b/i,
  ],
  [/^\s*(quem|who)\b/i, /\s\p{Lu}\p{Ll}/u],
  // "…qual ferramenta cuida disso?", "any tool that…?", "what command turns it on?": asked
  // anywhere in the question, since visitors state the problem first.
  [TOOL_ASKED, TOOL_NAMED],
  [FILE_ASKED, /(?:^|\s)~?\/[\w.-]+\/?/u],
];

/**
 * What kind of answer the question asks for (a number, a reason…): the pattern a sentence
 * of that kind matches, or null. Read once per question: the question can be long, and a
 * test per sentence made the answer quadratic in the passage's length.
 */
function askedKind(question: string): RegExp | null {
  return ANSWER_KINDS.find(([asks]) => asks.test(question))?.[1] ?? null;
}

/** 1 when the sentence holds the kind of thing the question asks for, else 0. */
function answerKind(kind: RegExp | null, text: string): number {
  return kind !== null && kind.test(text) ? 1 : 0;
}

/**
 * How a passage's sentences are read against the question: the question's terms, and a text's
 * terms as they count against them (a translated word's senses, lib/models/translated_terms.ts).
 */
export interface TermReading {
  terms: Set<string>;
  canon: (terms: Set<string>) => Set<string>;
}

/** The question read in its own words. */
export function ownReading(terms: Set<string>): TermReading {
  return { terms, canon: (t) => t };
}

/** A reading's IDF per question term over the retrieved sentences, and their sum. */
interface TermWeights {
  idf: Map<string, number>;
  total: number;
}

function termWeights(reading: TermReading, pooled: readonly Set<string>[]): TermWeights {
  const sentences = pooled.map(reading.canon);
  const idf = new Map<string, number>();
  for (const term of reading.terms) {
    const df = sentences.filter((terms) => terms.has(term)).length;
    idf.set(term, Math.log(1 + (sentences.length + 1) / (df + 0.5)));
  }
  return { idf, total: [...idf.values()].reduce((a, b) => a + b, 0) };
}

/**
 * Every quotable sentence of the top passages, scored by the IDF weight of the question
 * terms it holds. Terms frequent across the retrieved text ("site", "owner") say little;
 * a question term found nowhere weighs most, so a question about it is "not covered". Each
 * passage is read as `readingOf` says (a page in the other language, with the question's
 * translation); coverage is a share of its reading's weight, so readings compare.
 */
export function scoreSentences(
  question: string,
  quotable: Array<AnswerPassage & { n: number }>,
  maxPassages: number,
  readingOf: (p: AnswerPassage) => TermReading,
): Candidate[] {
  const kind = askedKind(question);
  const subject = definitionSubject(question);
  const subjectTerms = subject === null ? null : questionTerms(subject);
  const ranked = [...quotable]
    .map((p, i) => ({ p, i }))
    .sort((a, b) => b.p.score - a.p.score || a.i - b.i)
    .slice(0, maxPassages);
  const pooled = quotable.flatMap((p) => sentences(p.text)).map(contentTerms);
  const weights = new Map<TermReading, TermWeights>();
  const candidates: Candidate[] = [];
  ranked.forEach(({ p }, rank) => {
    const reading = readingOf(p);
    let w = weights.get(reading);
    if (!w) weights.set(reading, w = termWeights(reading, pooled));
    const titleTerms = reading.canon(contentTerms(p.title));
    sentences(p.text).forEach((text, position) => {
      // Questions, heading paths (FAQ entries, "A › B") and sub-headings kept in the passage
      // text (short lines with no closing punctuation) are not answers.
      if (/\?$/.test(text) || text.includes(" › ")) return;
      if (isBareLine(text)) return;
      const words = text.split(/\s+/).length;
      const terms = reading.canon(contentTerms(text));
      const matched = new Set<string>();
      let weight = 0;
      let titleWeight = 0;
      for (const term of reading.terms) {
        if (terms.has(term)) {
          matched.add(term);
          weight += w.idf.get(term)!;
        } else if (titleTerms.has(term)) {
          titleWeight += w.idf.get(term)!;
        }
      }
      // A term of the passage's heading counts half: the section is about it.
      const coverage = (weight + 0.5 * titleWeight) / w.total;
      candidates.push({
        text,
        n: p.n,
        passage: rank,
        position,
        matched,
        terms,
        coverage,
        words,
        // Question terms dominate; the kind of answer, a definition of what "what is X?" asks
        // about, the passage's title and rank break ties.
        score: coverage + 0.1 * (coverage > 0 ? answerKind(kind, text) : 0) +
          DEFINITION_WEIGHT * defines(subjectTerms, text) + 0.3 * (titleWeight / w.total) +
          RANK_WEIGHT / (rank + 1) - 0.002 * position,
      });
    });
  });
  return candidates;
}

/** 1 when the sentence reads as a definition of all the subject's terms, else 0. */
function defines(subjectTerms: Set<string> | null, text: string): number {
  if (!subjectTerms?.size) return 0;
  const head = definitionHead(text);
  if (head === null) return 0;
  const terms = contentTerms(head);
  for (const t of subjectTerms) if (!terms.has(t)) return 0;
  return 1;
}

/** The best-scored candidate other than `best`. */
function runnerUp(candidates: readonly Candidate[], best: Candidate): Candidate | undefined {
  let out: Candidate | undefined;
  for (const c of candidates) if (c !== best && (!out || c.score > out.score)) out = c;
  return out;
}

/** Whether a sentence mostly repeats another (half its terms or more). */
function redundant(c: Candidate, o: Candidate): boolean {
  let shared = 0;
  for (const t of c.terms) if (o.terms.has(t)) shared++;
  return shared >= 0.5 * Math.min(c.terms.size, o.terms.size) && c.terms.size > 0;
}

/**
 * A quoted sentence as it appears in the answer: capitalised unless it starts with code
 * ("squares.append(x)" stays as written), ending in a full stop,
 * and with the source's bracketed numbers made unreadable as citations (quoteBrackets):
 * only the model's own markers are citations.
 */
const TIDY_TAIL = charClass(";:,–—-", true);
/** A first word that is a name in code: joined by a dot, "_", a call or an index. */
const CODE_START = /^[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_]|[_(\[]|\p{N})/u;

/**
 * A command line a page shows on its own ("dpkg --purge linux-image-NNN", "deb http://… main",
 * "apt-mark hold package_name", "dlocate -S foo", "zgrep foo Contents-ARCH.gz"): a lower-case
 * word, then an option, a URL, a path, a redirection, a name with "_" or a file name within the
 * next two words; quoted as written, with no capital and no stop added (a line of prose ends
 * with one of its own).
 */
const COMMAND_LINE = new RegExp(
  String
    .raw`^${PROMPT}[a-z][\w.+-]*\s+(?:\S+\s+)?(?:--?[a-zA-Z]|\S*(?::\/\/|\/|_|[<>|*=]|\.[a-z]{1,4}(?:\s|$)))`,
  "u",
);

/**
 * A reStructuredText "::" that announces a code example ("results like this:: >>> 1.2 - 1.0"):
 * the page shows a colon. C++'s "std::vector" and a slice's "[::2]" have no space after it.
 */
const REST_LITERAL = /(?<=[\p{L}\p{N})"'])::(?=\s)/gu;

function tidy(text: string): string {
  // The tail is trimmed by an index scan: `/[…]+$/` is quadratic on long runs not at the end.
  let out = trimEndRun(quoteBrackets(text).replace(REST_LITERAL, ":"), TIDY_TAIL);
  if ((COMMAND_LINE.test(out) || endsWithCommand(out)) && !/[.!?…]$/u.test(out)) return out;
  if (!CODE_START.test(out)) out = out.charAt(0).toLocaleUpperCase() + out.slice(1);
  return /[.!?…]$/u.test(out) ? out : `${out}.`;
}
