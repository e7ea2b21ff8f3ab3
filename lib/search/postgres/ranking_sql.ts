/**
 * The lexical ranking on Postgres, one statement. Postgres ranks with its own parts: its
 * parser, stemmers and stopwords (the `site_pt`/`site_en` configurations), its GIN index to find
 * the passages, and `ts_rank` for how often and where (title weight A, text B) each query term
 * occurs. Two things it has no function for are added here:
 *
 * - IDF: `ts_rank` weighs every query term alike, so "python" would count as much as "unicode".
 *   Each term's rank is multiplied by its IDF, from `site_terms` (passage counts per lexeme).
 * - a candidate cap: ranking every passage that holds any query word is slow on a large site
 *   (1M passages: seconds). Only passages holding the query's rarest terms are ranked: terms are
 *   taken rarest first while their passage counts add up to `budget`, and at most `cap` such
 *   passages are read. A common word alone still finds passages, `cap` of them.
 */

import { codeTerms, type Lang, LANGS } from "../analyzer.ts";
import { queryLangs } from "../engine.ts";
import { splitJoinedWords } from "./schema.ts";

/**
 * The operators of a text ("//", "!="): the embedded engine's code terms less the negative
 * numbers, which Postgres's parser keeps ("-1") and would then count twice.
 */
export function pgCodeTerms(text: string): string[] {
  return codeTerms(text).filter((t) => !/^-\d/.test(t));
}

/** Tuning of the ranking; the defaults were chosen on the FaQuAD and pyfaq dev sets. */
export interface PgRankTuning {
  /** Cumulative passage count of the terms that pick candidates (default 20,000). */
  budget: number;
  /** Most candidates ranked (default 4,000). */
  cap: number;
  /** Weights of ts_rank for D, C, B, A (title A, text B). */
  weights: readonly [number, number, number, number];
  /** Length normalisation: the score is divided by (1 + lengthNorm · ln(1 + length)). */
  lengthNorm: number;
}

export const DEFAULT_TUNING: PgRankTuning = {
  budget: 20_000,
  cap: 4_000,
  weights: [0.1, 0.2, 0.4, 1.0],
  lengthNorm: 0.2,
};

/** A lexeme as a tsquery literal: quoted, so it is taken as is (no parsing, no stemming). */
const LIT = `'''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''''`;

/**
 * The spellings of a lexeme `a.lexeme` the site may use instead: "<word><1–2 digits>", the
 * word without its trailing digits, "e" glued on or off, and the "e-" Postgres keeps of
 * "e-mail". Exact lookups in `site_terms`' primary key, whatever the database's collation.
 */
const REPAIR_VARIANTS = `array(
    select a.lexeme || d::text from generate_series(0, 99) d where a.lexeme ~ '^[[:alpha:]]{2,}$'
    union all select regexp_replace(a.lexeme, '[0-9]+$', '') where a.lexeme ~ '^[[:alpha:]]{2,}[0-9]+$'
    union all select 'e' || a.lexeme where length(a.lexeme) >= 3
    union all select 'e-' || a.lexeme where length(a.lexeme) >= 3
    union all select substr(a.lexeme, 2) where a.lexeme like 'e%' and length(a.lexeme) >= 4)`;

/**
 * The statement's text. Parameters: $1 query text, $2 k, $3 budget, $4 cap, $5 weights
 * (float4[]), $6 lengthNorm, $7 the configurations the query is analysed with (text[]), $8
 * null, or a translated question's words, one text of its senses each (text[]): a word's
 * senses are scored as one term, as the embedded engine scores synonyms (their occurrences
 * pooled, the IDF of the passages holding any of them), $9 the question's operators
 * (`pgCodeTerms`, text[], each a word of its own, as written), $10 the words the question asks
 * with (`askedWords`, one text): unknown to the site, they weigh nothing in the match, $11
 * null, or the languages of the passages ranked (text[]: a bilingual site ranks a question's
 * own side in its language, its translation in the other, as the embedded engine's BM25 does),
 * $12 null, or a translated question's words for the match, each the text of all its senses
 * and the word itself (text[]; translate.ts `TranslatedQuestion.senses`).
 * Returns id, title, url, lang, body, score, match, heading, and the query's `weight` (its
 * words' IDF, a word the site lacks as the rarest term: what a side's scores are divided by when
 * two languages' rankings are merged) and `site_share` (the site's half of the match).
 */
const TRANSLATED_MATCH = `
-- The match's words (mw): without $12 the ranking's; with it, a translated question's words as
-- the embedded engine's match reads them (engine.ts #matcher): each word the lexemes of all its
-- senses, phrases' parts too, weighing its rarest lexeme's IDF, not the pooled IDF the ranking
-- scores it with; a word with no lexeme of the site is asked with when one of its lexemes is.
mlex as (
  select g.i, l.lexeme, t.ndoc
  from unnest($12::text[]) with ordinality as g(txt, i)
  cross join unnest($7::text[]) as c
  left join lateral unnest(tsvector_to_array(to_tsvector(c::regconfig, ${
  splitJoinedWords("g.txt")
}))) as l(lexeme) on true
  left join site_terms t on t.lexeme = l.lexeme and t.ndoc > 0
),
mw as (
  select gw.grp::text as grp, gw.q, gw.idf, gw.grp in (select lexeme from asked_lex) as asked
  from gw where $12::text[] is null
  union all
  select m.i::text, (string_agg(${LIT}, ' | ')
      filter (where m.ndoc is not null))::tsquery,
    max(ln(1 + (total.n - m.ndoc + 0.5) / (m.ndoc + 0.5))),
    coalesce(bool_or(m.lexeme in (select lexeme from asked_lex)), false)
  from mlex m, total group by m.i, total.n
)`;

/** The text search configuration of a passage `p`'s language, in SQL (`CONFIG_OF`). */
const HEADING_CONFIG = "(case p.lang when 'en' then 'site_en' else 'site_pt' end)::regconfig";

/** A passage `p`'s own heading, in SQL: its title's last part (lib/text/faq_heading.ts). */
const LAST_HEADING = "regexp_replace(p.title, '^.* › ', '')";

const LEXICAL_TEMPLATE = `
with asked as (
  -- Each lexeme with its word: its own without $8, else the word of the question it translates.
  select distinct case when $8::text[] is null then l.lexeme else g.i::text end as grp, l.lexeme
  from unnest(coalesce($8::text[], array[$1::text])) with ordinality as g(txt, i)
  cross join unnest($7::text[]) as c
  cross join lateral unnest(tsvector_to_array(to_tsvector(c::regconfig, ${
  splitJoinedWords("g.txt")
})))
    as l(lexeme)
  union
  select 'code ' || c, c from unnest($9::text[]) as c
),
-- A word the site lacks, read as the site spells it (lib/search/term_repair.ts): a version
-- digit added or dropped ("sqlite" → "sqlite3"), the "e" of "e-mail" glued on or left off.
repaired as (
  select a.grp, coalesce(
    (select t.lexeme from site_terms t
     where not exists (select 1 from site_terms k where k.lexeme = a.lexeme)
       and t.lexeme = any(${REPAIR_VARIANTS})
     order by t.ndoc desc, t.lexeme limit 1),
    a.lexeme) as lexeme
  from asked a
),
terms as (
  select x.grp, x.lexeme, coalesce(t.ndoc, 0) as ndoc
  from (select distinct grp, lexeme from repaired) x
  left join site_terms t using (lexeme)
),
total as (
  select greatest(coalesce(
    (select (value #>> '{}')::float8 from site_meta where key = 'passages'), 1), 1) as n
),
w as (
  select grp, lexeme, ndoc, (${LIT})::tsquery as q,
         ln(1 + (total.n - ndoc + 0.5) / (ndoc + 0.5)) as idf,
         sum(ndoc) over (order by ndoc, lexeme) - ndoc as before
  from terms, total
),
-- Each word as one term: the query of its known lexemes, and the IDF of the passages holding
-- any of them (their counts added, at most all: exact for a word of one lexeme); null when the
-- site has none of them.
gw as (
  select grp, (string_agg(${LIT}, ' | ') filter (where ndoc > 0))::tsquery as q,
    case when max(ndoc) > 0 then
      ln(1 + (total.n - least(total.n, sum(ndoc)) + 0.5) / (least(total.n, sum(ndoc)) + 0.5))
    end as idf
  from w, total group by grp, total.n
),
rare as (
  select string_agg(${LIT}, ' | ')::tsquery as q from w where ndoc > 0 and before < $3
),
cand as (
  select p.id from site_passages p, rare
  where p.tsv @@ rare.q and ($11::text[] is null or p.lang = any($11::text[]))/* twins */
  limit $4
),
scored as (
  -- Ranked on the index columns only; the text of the passages is read for the top ones.
  select p.id,
    (select coalesce(sum(gw.idf * ts_rank($5::float4[], p.tsv, gw.q, 0)), 0)
       from gw where gw.q is not null and p.tsv @@ gw.q)
      / (1 + $6 * ln(1 + length(p.tsv))) as score
  from cand join site_passages p using (id)
),
top as (
  select id, score from scored order by score desc, id limit $2
),
-- The words the question asks with ($10: "clono" of "Como clono…?"): a site that lacks them
-- may still answer it, so they weigh nothing in the match (lib/search/query_terms.ts askedWords).
asked_lex as (
  select l.lexeme from unnest($7::text[]) as c
  cross join lateral unnest(tsvector_to_array(to_tsvector(c::regconfig, $10::text))) as l(lexeme)
),
${TRANSLATED_MATCH}
select p.id, p.title, p.url, p.lang, p.body, t.score,
  -- The share of the query's IDF weight the passage holds and the one the site holds (a word
  -- the site lacks weighs as the rarest term, one passage's, as in the embedded engine, whose
  -- scale the offline model's gate is calibrated on): see Passage.match.
  ((select coalesce(sum(m.idf), 0) from mw m where m.q is not null and p.tsv @@ m.q)
     / nullif(a.all_idf, 0) + a.known_idf / nullif(a.all_idf, 0)) / 2 as match,
  -- The share of that weight the passage's own heading (its title's last part) holds: see
  -- Passage.heading.
  (select coalesce(sum(m.idf), 0) from mw m where m.q is not null
     and to_tsvector(${HEADING_CONFIG}, ${splitJoinedWords(LAST_HEADING)}) @@ m.q)
     / nullif(a.all_idf, 0) as heading,
  a.weight, a.known_idf / nullif(a.all_idf, 0) as site_share
-- One row with a null id when no passage matched: its weight and site share are still read.
from (select coalesce(sum(coalesce(idf, case when asked then 0
            else ln(1 + (total.n + 0.5) / 1.5) end)), 0) as all_idf,
          coalesce(sum(idf), 0) as known_idf,
          (select coalesce(sum(coalesce(gw.idf, ln(1 + (total.n + 0.5) / 1.5))), 0) from gw)
            as weight
   from total left join mw on true group by total.n) a
left join (top t join site_passages p using (id)) on true
order by t.score desc, p.id
`;

/** The statement (LEXICAL_TEMPLATE's parameters and columns). */
export const LEXICAL_SQL = lexicalSql("");

/**
 * LEXICAL_SQL without the passages of documents that have a declared translation
 * (site_documents.translation_of), nor of the documents they translate: the translated side
 * of a bilingual site's search, whose pages with a version in the question's language are
 * ranked on its own side (engine.ts `#withoutTwins`). A statement of its own, so a database
 * indexed before the column existed is never asked for it.
 */
export const LEXICAL_SQL_WITHOUT_TWINS = lexicalSql(`
    and not exists (select 1 from site_documents d join site_documents t on t.id = d.translation_of
      where d.id = p.doc_id)
    and not exists (select 1 from site_documents d where d.translation_of = p.doc_id)`);

/** The statement, with `twins` (SQL conditions on the candidate `p`) in its candidates' filter. */
function lexicalSql(twins: string): string {
  return LEXICAL_TEMPLATE.replace("/* twins */", twins);
}

/** The text search configuration of each language (lib/search/postgres/schema.ts). */
export const CONFIG_OF: Record<Lang, string> = { pt: "site_pt", en: "site_en" };

/**
 * The languages a query is analysed in, on the embedded engine's evidence (its `queryLangs`):
 * the one whose function words the query holds most; both without any.
 */
export function queryLanguages(query: string): Lang[] {
  return queryLangs(query, LANGS);
}

/** The configurations a query is analysed with (`queryLanguages`'). */
export function queryConfigs(query: string): string[] {
  return queryLanguages(query).map((l) => CONFIG_OF[l]);
}
