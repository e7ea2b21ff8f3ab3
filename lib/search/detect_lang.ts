/**
 * Which language a visitor wrote in, Portuguese or English, so that the offline model
 * answers, refuses and frames its quotes in it. Questions are short and full of product
 * names ("Posso usar Python num produto comercial?"), so the evidence is every function
 * word of either language (the Snowball lists the search uses, plus the spoken forms
 * visitors type: "pra", "tá", "vc"), then spelling that only one language has.
 */
import { SNOWBALL_STOPWORDS } from "./snowball_stopwords.ts";

/** The languages told apart (the analyzer's Lang). */
export type AnswerLang = "pt" | "en";

/** Lower-cases and strips diacritics: "Ação" → "acao". */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Spoken Portuguese function words missing from the written lists. */
const PT_SPOKEN = `pra pro pras pros prum pruma num numa dum duma vc vcs voce ce ta to tou tô né ne
  cadê cade oi olá ola tudo bem obrigado obrigada porfavor favor sim não nao posso pode podem
  consigo dá da tem têm existe algum alguma onde quando como quanto quantos quais qual porque
  porquê fazer faço faz preciso devo`;

/** English question and spoken words missing from the lists (and not Portuguese words). */
const EN_SPOKEN = `yes hi hello thanks please whats what's hows how's wheres there's can't don't
  doesn't isn't won't i'm i've would could should might must shall need want get got way`;

function wordSet(...lists: string[]): Set<string> {
  return new Set(lists.join(" ").split(/\s+/).filter(Boolean).map(fold));
}

const PT_WORDS = wordSet(SNOWBALL_STOPWORDS.pt.join(" "), PT_SPOKEN);
const EN_WORDS = wordSet(SNOWBALL_STOPWORDS.en.join(" "), EN_SPOKEN);

/** Words that are function words in both languages decide nothing ("a", "no", "do"…). */
for (const w of [...PT_WORDS]) {
  if (EN_WORDS.has(w)) {
    PT_WORDS.delete(w);
    EN_WORDS.delete(w);
  }
}

/** Letters and endings only Portuguese spelling has: "ação", "ões", "nh", "lh", "ç". */
const PT_SPELLING =
  /[ãõçâêôáéíóúà]|(?:ção|ções|ões|ãe|nh|lh)|(?:ando|endo|indo|mente|ável|ível)\b/iu;
/** Spellings Portuguese words do not have: "th", "wh", "sh", "-ing", "-ly", "'s". */
const EN_SPELLING = /\b(?:th|wh)|(?:ing|ly|ed)\b|\w'(?:s|t|re|ve|ll|m|d)\b/iu;

/**
 * The language of a visitor's text: function words of each language counted; on a tie,
 * the spelling cues; on a tie still, `fallback` (Portuguese, the UI's first language).
 *
 * @example detectLang("Posso usar Python num produto comercial sem pagar nada?") // "pt"
 */
export function detectLang(text: string, fallback: AnswerLang = "pt"): AnswerLang {
  return langEvidence(text) ?? fallback;
}

/**
 * The language a text's function words and spelling tell, or null when they tell nothing
 * ("tupla vs lista?", "GIL?"): the caller then decides by what else it knows.
 */
export function langEvidence(text: string): AnswerLang | null {
  const sample = withoutAddresses(text.slice(0, 2000));
  let pt = 0;
  let en = 0;
  for (const word of fold(sample).split(/[^\p{L}\p{N}']+/u)) {
    if (!word) continue;
    if (PT_WORDS.has(word)) pt++;
    else if (EN_WORDS.has(word)) en++;
  }
  if (pt !== en) return pt > en ? "pt" : "en";
  const ptSpelling = (sample.match(new RegExp(PT_SPELLING, "giu")) ?? []).length;
  const enSpelling = (sample.match(new RegExp(EN_SPELLING, "giu")) ?? []).length;
  if (ptSpelling !== enSpelling) return ptSpelling > enSpelling ? "pt" : "en";
  return null;
}

/**
 * The text without web and mail addresses and dotted names ("groups.google.com",
 * "os.path.join"), whose parts are no language's words: the "com" of a URL counted as
 * Portuguese "com", and an English page that links to one was quoted as "From the site's
 * pages in Portuguese:".
 */
function withoutAddresses(text: string): string {
  // Most text has none: it is read once, not split.
  if (!/:\/\/|@|\w\.\w/.test(text)) return text;
  return text.split(/\s+/).filter((token) =>
    !token.includes("://") && !token.includes("@") && !/\w\.\w/.test(token)
  ).join(" ");
}
