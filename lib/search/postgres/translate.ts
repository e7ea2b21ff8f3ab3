/**
 * Cross-language search on Postgres, as the embedded engine does it (lib/search/engine.ts): a
 * question is translated word by word through the bilingual lexicon (lib/search/lexicon.ts),
 * on a one-language site when it is asked in the other language, on a bilingual one always, for
 * the pages in the other language only. Of each word's senses only those that are one lexeme of
 * the site take part, read in one statement; a word with none stays as typed (a name, code, or
 * a word the site lacks, which the "not covered" gate then counts as such).
 */
import { isStopword, type Lang, tokenize } from "../analyzer.ts";
import { DEFAULT_QUESTION_WORDS, questionTranslation } from "../engine.ts";
import type { Lexicon } from "../lexicon.ts";
import { pgArray, type Sql, withDeadline } from "./client.ts";
import { CONFIG_OF } from "./ranking_sql.ts";

/** The senses, among `senses`, that analyse to one lexeme the site holds. */
const KNOWN_SENSES_SQL = `
select s.sense from unnest($1::text[]) as s(sense),
  lateral (select tsvector_to_array(to_tsvector($2::regconfig, s.sense)) as lexemes) a
where array_length(a.lexemes, 1) = 1
  and exists (select 1 from site_terms t where t.lexeme = a.lexemes[1])`;

/** A question's translation: the lexicon's, and the text Postgres searches of each word. */
export interface TranslatedQuestion {
  /** Each content word's senses, as the embedded engine's result carries them. */
  groups: string[][];
  /** Per word, the text of its senses the site holds (the ranking scores them as one). */
  words: string[];
  /**
   * Per word, the text of all its senses and the word itself, as the embedded engine's match
   * reads them: a phrase's parts count there, and the word a site lacks is told by its own
   * spelling (the verb asked with weighs nothing).
   */
  senses: string[];
}

/**
 * `query`, asked in `from`, as words in `to` for the site's full-text search; null when it
 * has no word to translate (only question words). `byStems` on a one-language site: a word the
 * lexicon lacks takes the senses of its stem's words (lexicon.ts translationGroups).
 */
export async function translatedQuestion(
  sql: Sql,
  query: string,
  [from, to]: readonly [Lang, Lang],
  { lexicon, byStems }: { lexicon: Lexicon; byStems: boolean },
  { deadline, signal }: { deadline: number; signal?: AbortSignal },
): Promise<TranslatedQuestion | null> {
  const groups = questionTranslation(query, from, lexicon, DEFAULT_QUESTION_WORDS, byStems);
  if (!groups.length) return null;
  const senses = [...new Set(groups.flat())];
  const rows = await withDeadline<Array<{ sense: string }>>(
    sql.unsafe(KNOWN_SENSES_SQL, [pgArray(senses), CONFIG_OF[to]]) as unknown as Promise<
      Array<{ sense: string }>
    >,
    deadline,
    signal,
  );
  const known = new Set(rows.map((r) => r.sense));
  // translationGroups puts the word itself last: kept when none of its senses is the site's.
  return {
    groups,
    words: groups.map((g) => g.filter((s) => known.has(s)).join(" ") || g.at(-1)!),
    senses: groups.map((g) => g.join(" ")),
  };
}

/** The words, among `$1`, none of whose lexemes in `$2` the site holds. */
const UNKNOWN_WORDS_SQL = `
select w.word from unnest($1::text[]) as w(word)
where not exists (
  select 1 from unnest(tsvector_to_array(to_tsvector($2::regconfig, w.word))) as l(lexeme)
  join site_terms t using (lexeme))`;

/**
 * The language of a question with no function word of either language ("tupla vs lista?") over a
 * site in `site` only, as the embedded engine tells it (engine.ts #lexiconLang): the other
 * language when some of its words are words of the other language in the lexicon that the site
 * lacks, the site's otherwise. One statement, only when such words are there.
 */
export async function lexiconLang(
  sql: Sql,
  query: string,
  site: Lang,
  lexicon: Lexicon,
  { deadline, signal }: { deadline: number; signal?: AbortSignal },
): Promise<Lang> {
  const other: Lang = site === "pt" ? "en" : "pt";
  const words = [...new Set(tokenize(query.slice(0, 500)))]
    .filter((t) => !isStopword(t, site) && lexicon[other].has(t));
  if (!words.length) return site;
  const rows = await withDeadline<Array<{ word: string }>>(
    sql.unsafe(UNKNOWN_WORDS_SQL, [pgArray(words), CONFIG_OF[site]]) as unknown as Promise<
      Array<{ word: string }>
    >,
    deadline,
    signal,
  );
  return rows.length ? other : site;
}
