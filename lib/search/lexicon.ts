/**
 * The optional bilingual lexicon (owner-provided, never shipped): query words translated
 * word by word into the index's other language, so a Portuguese question finds a page that
 * exists only in English without an embedding model. The file is TSV, one pair a line:
 * `<Portuguese word or phrase>\t<English word or phrase>`; it is read both ways. docs/search.md
 * shows how to build one from Debian's FreeDict dictionaries.
 */
import { readFileSync } from "node:fs";
import { fold, isStopword, type Lang, stem, tokenize } from "./analyzer.ts";

/** Translations per direction: folded source word → target phrases. */
export interface Lexicon {
  pt: Map<string, string[]>;
  en: Map<string, string[]>;
  /**
   * Per direction, the senses of every word by its stem: a visitor's inflected word
   * ("repetidos", "itens") that the dictionary lists only in its base form.
   */
  stems?: { pt: Map<string, string[]>; en: Map<string, string[]> };
}

/**
 * Most translations kept per word, in the file's order. Only senses that are one term of
 * the target index take part in a search, so a rare sense costs little: with FreeDict, 12
 * lifted the Python FAQ across languages (pt→en nDCG@10 0.458 → 0.505, en→pt 0.533 → 0.581)
 * and our site's English questions over Portuguese pages (0.698 → 0.741) against 3, with no
 * change on questions in the page's own language (docs/history/benchmarks-diary.md).
 */
const MAX_SENSES = 12;

function add(map: Map<string, string[]>, from: string, to: string): void {
  const key = fold(from.trim());
  if (!key || key.includes(" ")) return; // only single words are looked up
  const list = map.get(key) ?? [];
  if (list.length < MAX_SENSES && !list.includes(to)) list.push(to);
  map.set(key, list);
}

/** Parses the TSV; lines without a tab and `#` comments are skipped. */
export function parseLexicon(tsv: string): Lexicon {
  const lexicon: Lexicon = { pt: new Map(), en: new Map() };
  for (const line of tsv.split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [pt, en] = line.split("\t");
    if (!pt?.trim() || !en?.trim()) continue;
    add(lexicon.pt, pt, en.trim());
    add(lexicon.en, en, pt.trim());
  }
  lexicon.stems = { pt: byStem(lexicon.pt, "pt"), en: byStem(lexicon.en, "en") };
  return lexicon;
}

/** The senses of a direction's words merged by stem, in the file's order, capped likewise. */
function byStem(words: Map<string, string[]>, lang: Lang): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [word, senses] of words) {
    const key = stem(word, lang);
    const list = out.get(key) ?? [];
    for (const s of senses) if (list.length < MAX_SENSES && !list.includes(s)) list.push(s);
    out.set(key, list);
  }
  return out;
}

/**
 * A word's senses: its own entry, else (with `byStems`) those of the words that share its
 * stem.
 */
function sensesOf(
  lexicon: Lexicon,
  from: Lang,
  token: string,
  byStems: boolean,
): string[] | undefined {
  return lexicon[from].get(token) ??
    (byStems ? lexicon.stems?.[from].get(stem(token, from)) : undefined);
}

/**
 * The lexicon named by SEARCH_LEXICON (a file path), or null when unset. A file that
 * cannot be read stops the start with the path and the fix.
 */
export function loadLexiconFromEnv(env: Record<string, string | undefined>): Lexicon | null {
  const path = env.SEARCH_LEXICON?.trim();
  if (!path) return null;
  try {
    return parseLexicon(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(
      `SEARCH_LEXICON "${path}" cannot be read (${
        (error as Error).message
      }): fix the path or unset it`,
    );
  }
}

/**
 * The query translated word by word from `from` into the other language: each content
 * word's translations, or nothing when the lexicon knows none of its words.
 */
export function translateQuery(query: string, from: Lang, lexicon: Lexicon): string {
  const out: string[] = [];
  for (const token of tokenize(query)) {
    if (isStopword(token, from)) continue;
    const senses = sensesOf(lexicon, from, token, false);
    if (senses) out.push(...senses);
  }
  return out.join(" ");
}

/**
 * The query's content words, each with its candidate translations: the lexicon's senses
 * and the word itself, since names, code and loanwords ("Cloudflare", "widget", "cookie")
 * are spelt the same in both languages. Words `skip` rejects (question words) are left out.
 * With `byStems`, a word the lexicon lacks takes the senses of the words sharing its stem
 * (an inflected form: "repetidos" of "repetido"): on a one-language site the translation is
 * the only way in, while on a bilingual one those wider senses pulled the other language's
 * pages above a question's own-language answers.
 */
export function translationGroups(
  query: string,
  from: Lang,
  lexicon: Lexicon,
  skip: (token: string) => boolean = () => false,
  byStems = false,
): string[][] {
  const groups: string[][] = [];
  for (const token of tokenize(query)) {
    if (isStopword(token, from) || skip(token)) continue;
    const senses = sensesOf(lexicon, from, token, byStems) ?? [];
    groups.push(senses.includes(token) ? senses : [...senses, token]);
  }
  return groups;
}
