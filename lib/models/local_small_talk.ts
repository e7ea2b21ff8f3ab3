/**
 * The offline model's replies to small talk: a visitor's "Oi, tudo bem?" or "Thanks!" gets
 * a greeting or a "you're welcome" that says what the assistant is for, not a sentence
 * of whatever page shares a word with it (lib/text/courtesy.ts tells small talk apart).
 */
import type { AnswerLang } from "@/lib/search/detect_lang.ts";
import type { SmallTalkKind } from "@/lib/text/courtesy.ts";

const REPLIES: Record<SmallTalkKind, Record<AnswerLang, string>> = {
  greeting: {
    pt:
      "Olá! Sou o assistente deste site: respondo a perguntas sobre ele citando as páginas. O que você quer saber?",
    en:
      "Hi! I'm this site's assistant: I answer questions about it by quoting its pages. What would you like to know?",
  },
  thanks: {
    pt: "De nada! Se tiver outra pergunta sobre o site, é só escrever.",
    en: "You're welcome! If you have another question about the site, just ask.",
  },
  bye: {
    pt: "Até mais! Volte quando quiser perguntar algo sobre o site.",
    en: "Goodbye! Come back any time you have a question about the site.",
  },
};

/** The reply to small talk of a kind, in a language. */
export function smallTalkReply(kind: SmallTalkKind, lang: AnswerLang): string {
  return REPLIES[kind][lang];
}

/** Every small-talk reply: answers that quote no page, as the "not covered" one. */
export const SMALL_TALK_REPLIES: readonly string[] = Object.values(REPLIES).flatMap((r) =>
  Object.values(r)
);
