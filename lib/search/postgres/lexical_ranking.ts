/**
 * The lexical side of the Postgres search: what is asked of the ranking statement
 * (ranking_sql.ts) for a question, and, as the embedded engine does (lib/search/engine.ts), its
 * translation. On a one-language site a question in the other language is searched through its
 * translation alone. On a bilingual one every question is also translated into the other
 * language and searched there, without the pages that have a translation in the question's
 * language; each side's scores are divided by its question's weight, the translated side's by
 * BILINGUAL_CROSS_WEIGHT too, and the two merged (engine.ts `fuseShares`).
 */
import { type Lang, portugueseVariants, tokenize } from "../analyzer.ts";
import { langEvidence } from "../detect_lang.ts";
import { bilingualPair, fuseShares } from "../engine.ts";
import type { Lexicon } from "../lexicon.ts";
import { askedWords, searchText } from "../query_terms.ts";
import type { SearchTranslation } from "@/lib/protocol/ui_message.ts";
import { pgArray, type Sql, withDeadline } from "./client.ts";
import { liftEntries } from "./entry_lift.ts";
import {
  CONFIG_OF,
  LEXICAL_SQL,
  LEXICAL_SQL_WITHOUT_TWINS,
  pgCodeTerms,
  type PgRankTuning,
  queryLanguages,
} from "./ranking_sql.ts";
import { lexiconLang, type TranslatedQuestion, translatedQuestion } from "./translate.ts";

/** A ranked passage as the statements return it. */
export interface Row {
  id: string;
  title: string;
  url: string | null;
  lang: string;
  body: string;
  score: number;
  match?: number | null;
  /** The share of the query's weight the passage's heading holds (Passage.heading). */
  heading?: number | null;
  /** The query's IDF weight, the same on every row (ranking_sql.ts). */
  weight?: number | null;
  /** The site's half of the match, the same on every row. */
  site_share?: number | null;
}

/** What the search knows of the site, read with its status. */
export interface SiteShape {
  langs: Lang[];
  /** Whether some documents declare a translation (site_meta `translations`). */
  twins: boolean;
  lexicon: (() => Lexicon) | null;
  crossWeight: number;
}

/** One search's settings of the lexical ranking. */
export interface LexicalRun {
  depth: number;
  tuning: PgRankTuning;
  deadline: number;
  entryQuestion?: readonly [number, number];
  signal?: AbortSignal;
}

/** The lexical ranking, best first, and what the result says of a translation. */
export interface LexicalRanking {
  rows: Row[];
  translatedFrom?: Lang;
  translation?: SearchTranslation;
}

/** The text Postgres searches, the configurations it is analysed with, and its language. */
interface AskedText {
  text: string;
  /** A translated question's words, each the text of its senses. */
  words?: string[];
  /** A translated question's words for the match (translate.ts `TranslatedQuestion.senses`). */
  senses?: string[];
  /** The question's operators (ranking_sql.ts `pgCodeTerms`). */
  code: string[];
  /** The words it asks with (query_terms.ts `askedWords`), which the match does not count. */
  asked: string;
  configs: string[];
}

/** One statement's rows and the question's weight and site share in it. */
interface Side {
  rows: Row[];
  weight: number;
  siteShare: number;
}

/**
 * A one-language site's ranking: the question's own words, or, asked in the other language,
 * its translation (the result then says so, and carries it for the offline model).
 */
export async function oneLanguageRanking(
  sql: Sql,
  query: string,
  site: SiteShape,
  run: LexicalRun,
): Promise<LexicalRanking> {
  const to = site.langs.length === 1 ? site.langs[0] : null;
  // Read only for a question that needs it: a site's own-language questions never parse it.
  const lexicon = site.lexicon && to ? site.lexicon : null;
  // Without function words, the question's words tell its language, as in the embedded engine.
  const from = langEvidence(query) ??
    (lexicon && to ? await lexiconLang(sql, query, to, lexicon(), run) : null);
  if (lexicon && to && from && from !== to) {
    const t = await translatedQuestion(sql, query, [from, to], {
      lexicon: lexicon(),
      byStems: true,
    }, run);
    if (t) {
      const asked = translatedText(query, t, to);
      const side = await lexicalRows(sql, asked, run);
      return {
        rows: liftEntries(side.rows, query, run.entryQuestion, asked.text),
        translatedFrom: from,
        translation: { from, to, words: t.groups },
      };
    }
  }
  const asked = ownText(query);
  const side = await lexicalRows(sql, asked, run);
  return { rows: liftEntries(side.rows, query, run.entryQuestion, asked.text) };
}

/**
 * A bilingual site's ranking: the question in its own language's pages, merged, when its
 * language is told and there is a lexicon, with its translation in the other language's pages
 * that have no version in the question's.
 */
export async function bilingualRanking(
  sql: Sql,
  query: string,
  site: SiteShape,
  run: LexicalRun,
): Promise<LexicalRanking> {
  const langs = queryLanguages(query);
  const pair = site.lexicon ? bilingualPair(langs, site.langs) : null;
  const asked = ownText(query);
  // The embedded BM25 ranks a question told to be in one language on that language's pages.
  const ownRun = lexicalRows(sql, asked, run, { langs: pair ? [pair[0]] : null });
  const otherRun = pair ? translatedSide(sql, query, pair, site, run) : Promise.resolve(null);
  const [own, other] = await Promise.all([ownRun, otherRun]);
  const ownRows = liftEntries(own.rows, query, run.entryQuestion, asked.text);
  if (!pair || !other) return { rows: ownRows };
  const translation = { from: pair[0], to: pair[1], words: other.groups };
  const rows = fuseSides({ ...own, rows: ownRows }, other, site.crossWeight, run.depth);
  return { rows, translation };
}

/** The translated side of a bilingual search; null when the question has no word to translate. */
async function translatedSide(
  sql: Sql,
  query: string,
  pair: [Lang, Lang],
  site: SiteShape,
  run: LexicalRun,
): Promise<Side & { groups: string[][] } | null> {
  const lexicon = site.lexicon!();
  // byStems false: on a bilingual site the stems' wider senses pulled the other language's
  // pages above a question's own-language answers (lexicon.ts translationGroups).
  const t = await translatedQuestion(sql, query, pair, { lexicon, byStems: false }, run);
  if (!t) return null;
  const asked = translatedText(query, t, pair[1]);
  const side = await lexicalRows(sql, asked, run, { langs: [pair[1]], withoutTwins: site.twins });
  return { ...side, groups: t.groups };
}

/**
 * Both sides merged by the share of its question each passage matches, the translated side
 * weighing `crossWeight` of the own. The gate's site share of a page reached through the
 * translation is at most the one the question's words have in its own language: the
 * translation's many senses meet common words of the other side by chance (engine.ts
 * `#matcher`).
 */
function fuseSides(own: Side, other: Side, crossWeight: number, depth: number): Row[] {
  const side = (s: Side, weight: number) => ({
    ids: s.rows.map((r) => r.id),
    scores: s.rows.map((r) => Number(r.score)),
    weight,
  });
  const fused = fuseShares([
    side(own, own.weight || 1),
    side(other, (other.weight || 1) / crossWeight),
  ], depth);
  const ownById = new Map(own.rows.map((r) => [r.id, r]));
  const otherById = new Map(other.rows.map((r) => [r.id, r]));
  return fused.ids.map((id, i) => {
    const row = ownById.get(id) ?? cappedMatch(otherById.get(id)!, own.siteShare);
    return { ...row, score: fused.scores[i] };
  });
}

/** `row` with the site's half of its match at most `share`. */
function cappedMatch(row: Row, share: number): Row {
  if (row.match == null) return row;
  const site = Number(row.site_share ?? 0);
  return { ...row, match: Number(row.match) - (site - Math.min(site, share)) / 2 };
}

/** A question's own words less the question words, in its language (both when not told). */
function ownText(query: string): AskedText {
  const own = queryLanguages(query);
  const text = searchText(query, own);
  return {
    text,
    ...(own.includes("pt") ? withVariants(text) : {}),
    // Operators, which Postgres's parser drops, searched as typed.
    code: pgCodeTerms(query),
    asked: askedWords(query).join(" "),
    configs: own.map((l) => CONFIG_OF[l]),
  };
}

/**
 * A Portuguese question's words, each with the other variant's spelling when it has one
 * ("arquivo" with "ficheiro"), scored as one word as a translation's senses are: the embedded
 * engine reads both the same way (analyzer.ts `portugueseVariants`), Postgres indexes each page's
 * word as written. Nothing when no word has one, so other questions are searched as before.
 */
function withVariants(text: string): Pick<AskedText, "words" | "senses"> {
  // Each word once: a repeated word is one term, as it is in the question's own tsquery.
  const words = [...new Set(text.split(/\s+/).filter(Boolean))];
  let any = false;
  const groups = words.map((word) => {
    const tokens = tokenize(word);
    const variants = tokens.length === 1 ? portugueseVariants(tokens[0]) : [];
    any ||= variants.length > 0;
    return [word, ...variants].join(" ");
  });
  return any ? { words: groups, senses: groups } : {};
}

/**
 * A translated question's words, each the text of its senses, analysed in `to`. Its match reads
 * each word's senses as the embedded engine's does (`senses`), and the words it asks with are
 * the question's own ("clono"): told by a word of no sense the site holds, as there.
 */
function translatedText(
  query: string,
  { words, senses }: Pick<TranslatedQuestion, "words" | "senses">,
  to: Lang,
): AskedText {
  return {
    text: words.join(" "),
    words,
    senses,
    code: pgCodeTerms(query),
    asked: askedWords(query).join(" "),
    configs: [CONFIG_OF[to]],
  };
}

/**
 * The lexical ranking (ranking_sql.ts), `depth` passages deep, of the passages in `langs` (all
 * when null), without the documents that have a translation with `withoutTwins`.
 */
async function lexicalRows(
  sql: Sql,
  { text, words, senses, code, asked, configs }: AskedText,
  run: LexicalRun,
  only: { langs: Lang[] | null; withoutTwins?: boolean } = { langs: null },
): Promise<Side> {
  const { tuning } = run;
  const params = [
    text,
    run.depth,
    tuning.budget,
    tuning.cap,
    pgArray(tuning.weights),
    tuning.lengthNorm,
    pgArray(configs),
    words ? pgArray(words) : null,
    pgArray(code),
    asked,
    only.langs ? pgArray(only.langs) : null,
    senses ? pgArray(senses) : null,
  ];
  const statement = only.withoutTwins ? LEXICAL_SQL_WITHOUT_TWINS : LEXICAL_SQL;
  const rows = await withDeadline<Row[]>(
    sql.unsafe(statement, params) as unknown as Promise<Row[]>,
    run.deadline,
    run.signal,
  );
  // The statement returns its weights on a row without a passage when none matched.
  const first = rows[0];
  return {
    rows: rows.filter((r) => r.id !== null),
    weight: Number(first?.weight ?? 0),
    siteShare: Number(first?.site_share ?? 0),
  };
}
