/**
 * The FAQ entry lift of the embedded engine, applied to the rows Postgres ranked: an entry
 * whose question holds the visitor's words, or asks the same kind of thing ("why" for "why"),
 * is the unit written to answer it, and SQL ranks its question like any other words. The
 * head of the lexical list is reordered by score × (1 + a · share + b · same kind), the share
 * being the part of the query's terms found in the entry's question. Unlike the embedded
 * engine the share is not IDF-weighted: the rows carry no term statistics, and reading them
 * would cost a second round trip per query.
 */
import { analyze, type Lang, LANGS } from "../analyzer.ts";
import { DEFAULT_ENTRY_QUESTION, ENTRY_QUESTION_DEPTH } from "../engine.ts";
import { entryQuestion, isFaqEntry, questionKind } from "../question_kind.ts";

/** What the lift reads of a ranked row. */
export interface LiftRow {
  title: string;
  lang: string;
  score: number;
}

/**
 * `rows` (best first) with the FAQ entries of its head lifted by their own question; `words`
 * are what the share is counted on when they are not the query's (its translation).
 */
export function liftEntries<R extends LiftRow>(
  rows: R[],
  query: string,
  [a, b]: readonly [number, number] = DEFAULT_ENTRY_QUESTION,
  words = query,
): R[] {
  const head = rows.slice(0, ENTRY_QUESTION_DEPTH);
  if ((a <= 0 && b <= 0) || !head.some((r) => isFaqEntry(r.title))) return rows;
  const kind = questionKind(query);
  const terms = new Map<Lang, string[]>();
  const queryTerms = (lang: Lang) => {
    let t = terms.get(lang);
    if (!t) terms.set(lang, t = [...new Set(analyze(words, lang))]);
    return t;
  };
  const lifted = head.map((row, i) => {
    if (!isFaqEntry(row.title)) return { row, i, score: Number(row.score) };
    const lang: Lang = (LANGS as readonly string[]).includes(row.lang) ? row.lang as Lang : "pt";
    const question = entryQuestion(row.title);
    const own = new Set(analyze(question, lang));
    const asked = queryTerms(lang);
    const share = asked.length ? asked.filter((t) => own.has(t)).length / asked.length : 0;
    const same = kind !== "other" && questionKind(question) === kind ? b : 0;
    return { row, i, score: Number(row.score) * (1 + a * share + same) };
  });
  lifted.sort((x, y) => y.score - x.score || x.i - y.i);
  return [...lifted.map((l) => ({ ...l.row, score: l.score })), ...rows.slice(head.length)];
}
