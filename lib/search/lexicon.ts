/**
 * The bilingual lexicon: query words translated word by word into the index's other
 * language, so a Portuguese question finds a page that exists only in English without an
 * embedding model. The file is TSV, one pair a line: `<Portuguese word or phrase>\t<English
 * word or phrase>`; it is read both ways. One ships in data/ (learned from LibreOffice's
 * translation, scripts/lexicon_from_libreoffice.ts) for one-language sites; an owner's file
 * (SEARCH_LEXICON; docs/search.md builds one from Debian's FreeDict) replaces it everywhere.
 */
import { readFileSync } from "node:fs";
import { fold, isStopword, type Lang, stem, tokenize } from "./analyzer.ts";

/** Translations per direction: folded source word → target phrases. */
export interface Lexicon {
  pt: Map<string, string[]>;
  en: Map<string, string[]>;
}

/**
 * Per lexicon and direction, the senses of every word by its stem: a visitor's inflected word
 * ("repetidos", "itens") that the dictionary lists only in its base form. Built on the first
 * lookup that needs it (one-language sites): stemming every word costs more than the parse.
 */
const stemIndexes = new WeakMap<Lexicon, Partial<Record<Lang, Map<string, string[]>>>>();

function stemIndex(lexicon: Lexicon, lang: Lang): Map<string, string[]> {
  let byLang = stemIndexes.get(lexicon);
  if (!byLang) stemIndexes.set(lexicon, byLang = {});
  return byLang[lang] ??= byStem(lexicon[lang], lang);
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
    (byStems ? stemIndex(lexicon, from).get(stem(token, from)) : undefined);
}

/** The lexicon the search ships, learned from LibreOffice's pt-BR translation (data/). */
export const SHIPPED_LEXICON_URL: URL = new URL("./data/lexicon_pt_en.tsv", import.meta.url);

let shipped: Lexicon | undefined;

/**
 * The shipped lexicon, parsed on its first use (about 20–60 ms), so that only a search that
 * translates a question pays for it, never the start.
 */
export function shippedLexicon(): Lexicon {
  return shipped ??= readShippedLexicon(() => readFileSync(SHIPPED_LEXICON_URL, "utf8"));
}

/**
 * The shipped lexicon as `read` gives it, or an empty one when it cannot be read (a deployment
 * that left data/ out, or was denied it): translation is an aid, and failing every question
 * whose words alone tell its language is worse than answering it untranslated. Said once, on
 * stderr, with the file to restore.
 */
export function readShippedLexicon(
  read: () => string,
  warn: (message: string) => void = console.error,
): Lexicon {
  try {
    return parseLexicon(read());
  } catch (error) {
    warn(
      `search: the shipped lexicon ${SHIPPED_LEXICON_URL.pathname} cannot be read (${
        (error as Error).message
      }); questions are searched untranslated until it is deployed with the app`,
    );
    return { pt: new Map(), en: new Map() };
  }
}

/**
 * The language a question's words tell by a lexicon's vocabulary, for a question whose function
 * words and spelling tell none ("copy file python?", "copiar arquivo python?"): `least` (two) or
 * more words of one language that are no words of the other, and none of the other's. A
 * loanword alone ("email?", "download?") or a name ("GIL?") tells nothing: null.
 */
export function vocabularyLang(
  text: string,
  lexicon: Lexicon = shippedLexicon(),
  least = 2,
): Lang | null {
  let pt = 0;
  let en = 0;
  for (const token of tokenize(text.slice(0, 500))) {
    const inPt = lexicon.pt.has(token);
    const inEn = lexicon.en.has(token);
    if (inPt && !inEn) pt++;
    else if (inEn && !inPt) en++;
  }
  if (pt >= least && en === 0) return "pt";
  if (en >= least && pt === 0) return "en";
  return null;
}

/** The lexicons a search uses, as SEARCH_LEXICON sets them. */
export interface LexiconChoice {
  /** The owner's lexicon (a file path): used on every site, bilingual ones too. */
  lexicon: Lexicon | null;
  /** The lexicon a one-language site translates with when the owner gives none. */
  defaultLexicon: (() => Lexicon) | null;
}

/**
 * The one lexicon a choice translates with: the owner's when there is one, else the default
 * (what the embedded engine reads of the two; the Postgres search takes it alone).
 */
export function chosenLexicon(choice: LexiconChoice): (() => Lexicon) | null {
  const owner = choice.lexicon;
  return owner ? () => owner : choice.defaultLexicon;
}

/** No owner's lexicon: the shipped one on one-language sites, as with SEARCH_LEXICON unset. */
export const DEFAULT_LEXICONS: LexiconChoice = {
  lexicon: null,
  defaultLexicon: shippedLexicon,
};

/**
 * The lexicons a SEARCH_LEXICON value (or an eval's `--lexicon`) chooses: none, the shipped
 * one on one-language sites only; `off`, none at all; a file path, that file on every site,
 * read with `read` (which throws with the path and the fix when it cannot).
 */
export function lexiconChoice(
  value: string | undefined,
  read: (path: string) => string,
): LexiconChoice {
  const path = value?.trim();
  if (path === "off") return { lexicon: null, defaultLexicon: null };
  return path ? { ...DEFAULT_LEXICONS, lexicon: parseLexicon(read(path)) } : DEFAULT_LEXICONS;
}

/** The lexicons SEARCH_LEXICON chooses ({@linkcode lexiconChoice}). */
export function lexiconChoiceFromEnv(env: Record<string, string | undefined>): LexiconChoice {
  return lexiconChoice(env.SEARCH_LEXICON, readOwnerLexicon);
}

/** The owner's lexicon file; one that cannot be read stops the start with the path and the fix. */
function readOwnerLexicon(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(
      `SEARCH_LEXICON "${path}" cannot be read (${
        (error as Error).message
      }): fix the path, unset it or set it to "off"`,
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
