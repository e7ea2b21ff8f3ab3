/**
 * The offline model's replies to small talk: a visitor's "Oi, tudo bem?" or "Thanks!" gets
 * a greeting or a "you're welcome" that says what the assistant is for, not a sentence
 * of whatever page shares a word with it (lib/text/courtesy.ts tells small talk apart).
 */
import type { AnswerLang } from "@/lib/search/detect_lang.ts";
import type { SmallTalkKind } from "@/lib/text/courtesy.ts";

const REPLIES: Record<Exclude<SmallTalkKind, "who">, Record<AnswerLang, string>> = {
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
  self: {
    pt:
      "Sou o assistente deste site: respondo a perguntas sobre o conteúdo dele, sempre citando as páginas de onde tiro cada resposta, e digo quando o site não trata do assunto.",
    en:
      "I'm this site's assistant: I answer questions about its content, always citing the pages each answer comes from, and I say so when the site does not cover a topic.",
  },
  ack: {
    pt: "Certo! Se tiver outra pergunta sobre o site, é só escrever.",
    en: "Sure! If you have another question about the site, just ask.",
  },
  bye: {
    pt: "Até mais! Volte quando quiser perguntar algo sobre o site.",
    en: "Goodbye! Come back any time you have a question about the site.",
  },
};

/** What the assistant can do besides answering, said when the visitor asks what it does. */
const CONTACT: Record<AnswerLang, string> = {
  pt: "Também posso deixar um recado seu para o dono do site, depois que você aprovar o envio.",
  en: "I can also pass a message from you to the site owner, once you approve sending it.",
};

const ASK: Record<AnswerLang, string> = {
  pt: "O que você quer saber?",
  en: "What would you like to know?",
};

/** What the assistant can do in this turn, for the "self" reply. */
export interface Abilities {
  /** Whether the contact agent can take a message for the owner. */
  contact: boolean;
}

/**
 * The reply to small talk of a kind, in a language. "Who are you?" gets what the assistant is,
 * when the site's own pages do not answer it (lib/models/local_model.ts searches them first).
 */
export function smallTalkReply(
  kind: SmallTalkKind,
  lang: AnswerLang,
  abilities: Abilities = { contact: false },
): string {
  if (kind !== "self" && kind !== "who") return REPLIES[kind][lang];
  return [REPLIES.self[lang], abilities.contact ? CONTACT[lang] : "", ASK[lang]]
    .filter(Boolean).join(" ");
}

/** Whether an answer is a small-talk reply: one that quotes no page, as "not covered". */
export function isSmallTalkReply(text: string): boolean {
  return Object.values(REPLIES).some((r) =>
    Object.values(r).some((reply) => text === reply || text.startsWith(reply + " "))
  );
}
