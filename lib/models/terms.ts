/**
 * The content terms of a question or a sentence, as the offline model compares them: the
 * site search's analysis in both languages, without stopwords and question frames.
 */
import { analyze, LANGS } from "@/lib/search/analyzer.ts";
import { fold } from "@/lib/search/detect_lang.ts";

const PT_STOPWORDS = new Set(
  `a à ao aos as às com como da das de do dos e é ela elas ele eles em entre era essa esse esta
  este eu foi for há isso isto já lhe mais mas me meu minha muito na nas não nem no nos nós o os
  ou para pela pelas pelo pelos por qual quais quando que quem se sem ser seu seus sobre sua suas
  também te tem têm ter teu tua um uma umas uns você vocês vos onde qual porque porquê quanto
  quantos quanta quantas fala faz fazer está estão são sou somos pode podem posso quero gostaria
  saber diga dizer conte me sobre algum alguma alguns algumas todo toda todos todas então aqui
  ali lá site página pra pro pras pros num numa`.split(/\s+/).filter(Boolean).map(fold),
);

const EN_STOPWORDS = new Set(
  `a about an and are as at be been but by can could did do does for from had has have he her
  him his how i if in into is it its me my no not of on or our she so than that the their them
  then there these they this those to was we were what when where which who whom why will with
  would you your yours tell know please any some all does doing done also just more most much
  very site page`.split(/\s+/).filter(Boolean),
);

function words(text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * Content terms of a text: the site search's own analysis (folding, stopwords,
 * Snowball stemming) in both languages, so "publicar" meets "publicação" and
 * the answer agrees with what the search matched.
 */
export function contentTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const lang of LANGS) {
    for (const term of analyze(text, lang)) {
      if (term.length >= 3 || /^\d+$/.test(term)) terms.add(term);
    }
  }
  // A word that is a stopword in either language carries no content.
  for (const word of words(text)) {
    if (PT_STOPWORDS.has(word) || EN_STOPWORDS.has(word)) {
      for (const lang of LANGS) terms.delete(analyze(word, lang, { stopwords: false })[0]);
    }
  }
  return terms;
}

/**
 * Verbs that frame a question rather than carry its subject ("como faço para…",
 * "can you tell me…"); they are not asked about, so they weigh nothing.
 */
const QUESTION_FRAME = contentTerms(
  `faço faz fazer fazem posso pode podem poderia consigo consegue quero queria gostaria saber
  dizer diga explicar explique existe existem tem têm há
  do does did can could would should tell know explain want like please there`,
);

/**
 * Phrases that frame a question as worth doing ("vale a pena separar o /home?", "is it worth
 * it?"): their words are the frame's as a phrase only ("a pena prevista", "the worth of").
 * A sentence that shares them answers nothing asked ("Também vale a pena verificar o yavipin").
 */
const FRAME_PHRASES = /\b(?:vale a pena|is it worth|worth it)\b/giu;

/** The terms a question asks about. */
export function questionTerms(question: string): Set<string> {
  const terms = contentTerms(question.replace(FRAME_PHRASES, " "));
  for (const t of QUESTION_FRAME) terms.delete(t);
  return terms;
}
