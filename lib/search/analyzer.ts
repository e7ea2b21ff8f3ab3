/**
 * Text analysis shared by the indexer, the query path and the eval command:
 * Unicode NFKC, case folding, accent folding, stopwords and Snowball stemming
 * for Portuguese and English. Numbers are kept as tokens.
 *
 * Why these packages: `@orama/stemmers` ships the Snowball stemmers (the
 * reference algorithms for both languages, pure JS, no native code) and
 * `stopwords-iso` is the stopword list the project already depends on. The
 * stopwords-iso lists are very broad (pt has "ano", "conselho", "cinco"…, en
 * has "information", "research"…), which hurts a site about concrete things,
 * so only the entries that are also function words in the Snowball lists
 * below are kept: the intersection is short, standard and still sourced.
 */
import { stemmer as stemPt } from "@orama/stemmers/portuguese";
import { stemmer as stemEn } from "@orama/stemmers/english";
import stopwordsIso from "stopwords-iso" with { type: "json" };
import { SNOWBALL_STOPWORDS } from "./snowball_stopwords.ts";
import { PT_VARIANTS } from "./data/pt_variants.ts";

/** Languages the analyzer knows. */
export type Lang = "pt" | "en";

/** The languages, in a stable order (used as indexes in the asset). */
export const LANGS: readonly Lang[] = ["pt", "en"];

/**
 * Identifies the analysis pipeline; stored in the asset header and checked at load, so that
 * `deno task dev` rebuilds an index a pull made stale. Bumped when the passages a corpus
 * yields change too (v4: the chunker's FAQ entries, tables and announced lists; v5: European
 * Portuguese words read as the Brazilian ones, and commands kept in their sentences; v6: that
 * table rebuilt without the pairs a dialog's keyboard mnemonic made up).
 */
export const ANALYZER_ID = "nfkc-fold-snowball-stop:v6";

const MARKS = /\p{M}+/gu;
const TOKEN = /[\p{L}\p{N}]+/gu;

const NON_ASCII = /[^\p{ASCII}]/u;

/** NFKC, lower case and accent folding ("Informações" → "informacoes"). */
export function fold(text: string): string {
  // ASCII is its own NFKC and NFD form, and has no marks: half the cost of most words.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFKC").toLowerCase().normalize("NFD").replace(MARKS, "");
}

/** Folded word tokens: runs of letters or digits; "_" and punctuation split. */
export function tokenize(text: string): string[] {
  return fold(text).match(TOKEN) ?? [];
}

// The Portuguese Snowball list has the clitic pronouns ("me", "te", "se") but not the tonic ones
// that follow a preposition ("para mim", "sobre mim", "comigo"), which English "me" covers: as
// words they matched any passage written to the visitor ("…guardou sobre mim?"). "ti" stays a
// word (also "TI", information technology), and "consigo" ("I manage to") too.
const PT_TONIC_PRONOUNS = ["mim", "si", "comigo", "contigo", "conosco", "convosco"];

function stopSet(lang: Lang): Set<string> {
  const iso = new Set((stopwordsIso as Record<string, string[]>)[lang].map(fold));
  const words = new Set(SNOWBALL_STOPWORDS[lang].map(fold).filter((w) => iso.has(w)));
  if (lang === "pt") { for (const w of PT_TONIC_PRONOUNS) words.add(w); }
  return words;
}

const STOP: Record<Lang, Set<string>> = { pt: stopSet("pt"), en: stopSet("en") };

/** Whether a folded token is a stopword of `lang`. */
export function isStopword(token: string, lang: Lang): boolean {
  return STOP[lang].has(token);
}

// The Portuguese Snowball stemmer only conflates nasal plurals in their
// accented spelling ("avaliações" and "avaliação" → "avali"), but visitors
// often type without accents. Folding happens first, so restore the nasal
// endings — in folded Portuguese a final -ao/-oes/-aes is almost always
// -ão/-ões/-ães (and -cao/-coes is -ção/-ções) — and fold the stem again: both spellings meet.
const NASAL = /(cao|coes|ao|oes|aes)$/;
const NASAL_ACCENTED: Record<string, string> = {
  cao: "ção",
  coes: "ções",
  ao: "ão",
  oes: "ões",
  aes: "ães",
};

/** The Snowball stem of a folded token, before European Portuguese is read as Brazilian. */
export function snowballStem(token: string, lang: Lang): string {
  return stemFolded(token, lang);
}

function stemFolded(token: string, lang: Lang): string {
  if (/^\p{N}/u.test(token)) return token; // numbers are kept verbatim
  if (lang === "en") return stemEn(token);
  const restored = token.replace(NASAL, (m) => NASAL_ACCENTED[m]);
  return fold(stemPt(restored));
}

const stemCache: Record<Lang, Map<string, string>> = { pt: new Map(), en: new Map() };
const STEM_CACHE_MAX = 200_000;

/**
 * European Portuguese words read as the word Brazilian Portuguese says instead ("ficheiro" →
 * "arquivo", "ecrã" → "tela", "registo" → "registro"): a site and its visitor often write
 * the two variants, and both are read the same way, so a page of either variant is found in
 * the other's words. Word for word, not stem for stem: a European word may share its stem with
 * a Brazilian word of another meaning. The pairs are learned from LibreOffice's two Portuguese
 * translations (lib/search/data/pt_variants.ts, `deno task lexicon:variants`). The table both
 * ways, folded: European → Brazilian, Brazilian → its European words.
 */
let variants: { brazilian: Map<string, string>; european: Map<string, string[]> } | undefined;

function variantTables(): NonNullable<typeof variants> {
  if (variants) return variants;
  const brazilian = new Map<string, string>();
  const european = new Map<string, string[]>();
  for (const [eu, br] of PT_VARIANTS) {
    brazilian.set(fold(eu), fold(br));
    european.set(fold(br), [...european.get(fold(br)) ?? [], fold(eu)]);
  }
  return variants = { brazilian, european };
}

function brazilianWord(token: string): string {
  return variantTables().brazilian.get(token) ?? token;
}

/**
 * The other variant's spellings of a folded Portuguese word ("arquivo" → ["ficheiro"],
 * "ficheiro" → ["arquivo"]), for a search that cannot read both the same way (Postgres's own
 * Portuguese configuration indexes the page's word as written); [] for most words.
 */
export function portugueseVariants(token: string): string[] {
  const { brazilian, european } = variantTables();
  const br = brazilian.get(token);
  return br ? [br] : european.get(token) ?? [];
}

/** Stem one folded token (memoised: corpora repeat words a lot). */
export function stem(token: string, lang: Lang): string {
  const cache = stemCache[lang];
  let s = cache.get(token);
  if (s === undefined) {
    s = stemFolded(lang === "pt" ? brazilianWord(token) : token, lang);
    if (cache.size < STEM_CACHE_MAX) cache.set(token, s);
  }
  return s;
}

// Operators and negative numbers hold the meaning of a code question ("-7 // 2", "a[-1]") and
// the word tokens drop them: each is a term of its own, where it stands apart from other
// punctuation ("http://" and "===" are no operators).
const CODE_SYMBOL =
  /(?<![^\s\w()[\]"'`])(?:\/\/|\*\*|==|!=|<=|>=|->|=>|:=|\+=|-=|\*=|\/=|<<|>>|&&|\|\||\?:)(?![^\s\w()[\]"'`])|(?<=^|[\s([:,=])-\d+/gu;

/** Two operator characters in a row, or a minus before a digit: most prose has neither. */
const MAYBE_CODE = /[/*=!<>\-:+&|?][/*=<>&|:]|-\d/;

/** The operators and negative numbers of a text, as written ("//", "-1"). */
export function codeTerms(text: string): string[] {
  // Every sentence the offline model scores comes through here: skip the full scan of prose.
  if (!MAYBE_CODE.test(text)) return [];
  return text.match(CODE_SYMBOL) ?? [];
}

/** Options of `analyze`. */
export interface AnalyzeOptions {
  /** Drop stopwords (default true). */
  stopwords?: boolean;
  /** Apply stemming (default true). */
  stemming?: boolean;
}

/**
 * The index terms of a text in a language.
 *
 * @example analyze("As avaliações dos cursos", "pt") // ["avali", "curs"]
 */
export function analyze(text: string, lang: Lang, options: AnalyzeOptions = {}): string[] {
  const dropStop = options.stopwords ?? true;
  const doStem = options.stemming ?? true;
  const out: string[] = [];
  for (const token of tokenize(text)) {
    if (dropStop && STOP[lang].has(token)) continue;
    out.push(doStem ? stem(token, lang) : token);
  }
  for (const symbol of codeTerms(text)) out.push(symbol);
  return out;
}

/** Narrows a string to a known language, falling back to `fallback`. */
export function toLang(value: string | null | undefined, fallback: Lang = "pt"): Lang {
  const v = (value ?? "").toLowerCase().slice(0, 2);
  return v === "pt" || v === "en" ? v : fallback;
}
