/**
 * Cross-language search on a one-language Postgres site, as the embedded engine does it
 * (lib/search/engine.ts): a question in the other language is translated word by word through
 * the bilingual lexicon (lib/search/lexicon.ts). Of each word's senses only those that are one
 * lexeme of the site take part, read in one statement; a word with none stays as typed (a
 * name, code, or a word the site lacks, which the "not covered" gate then counts as such).
 */
import type { Lang } from "../analyzer.ts";
import { type Lexicon, translationGroups } from "../lexicon.ts";
import { isQuestionWord, leadingModalWord } from "../query_terms.ts";
import { pgArray, type Sql, withDeadline } from "./client.ts";
import { CONFIG_OF } from "./ranking_sql.ts";

/** The senses, among `senses`, that analyse to one lexeme the site holds. */
const KNOWN_SENSES_SQL = `
select s.sense from unnest($1::text[]) as s(sense),
  lateral (select tsvector_to_array(to_tsvector($2::regconfig, s.sense)) as lexemes) a
where array_length(a.lexemes, 1) = 1
  and exists (select 1 from site_terms t where t.lexeme = a.lexemes[1])`;

/**
 * `query`, asked in `from`, as words in `to` for the site's full-text search, one text of
 * senses per word of the question (the ranking scores a word's senses as one); null when it
 * has no word to translate (only question words).
 */
export async function translatedQuestion(
  sql: Sql,
  query: string,
  from: Lang,
  to: Lang,
  lexicon: Lexicon,
  deadline: number,
  signal?: AbortSignal,
): Promise<string[] | null> {
  const lead = leadingModalWord(query, from);
  const groups = translationGroups(
    query,
    from,
    lexicon,
    (t) => isQuestionWord(t, from, 1) || t === lead,
    true,
  );
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
  return groups.map((g) => g.filter((s) => known.has(s)).join(" ") || g.at(-1)!);
}
