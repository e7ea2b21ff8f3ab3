/**
 * The visitor's interface language, as a sentence of the system prompt that real models read
 * as an instruction and the offline model reads back: the language to answer "OpenAI?" or
 * "GIL?" in, a question whose words belong to neither language.
 */
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { Locale } from "@/lib/i18n/mod.ts";
import type { AnswerLang } from "@/lib/search/detect_lang.ts";

const NAMES: Record<Locale, string> = { "pt-BR": "Brazilian Portuguese", en: "English" };

/** The system prompt's sentence for `locale`. */
export function interfaceLine(locale: Locale): string {
  return `The visitor's interface is in ${
    NAMES[locale]
  }: answer a question written in neither language (a bare name such as "OpenAI?") in it.`;
}

const LINE = /The visitor's interface is in (English|Brazilian Portuguese)\b/;

/** The interface language a prompt's system message states; undefined when none does. */
export function interfaceLang(prompt: LanguageModelV4Prompt): AnswerLang | undefined {
  for (const message of prompt) {
    if (message.role !== "system") continue;
    const named = LINE.exec(message.content.slice(0, 20_000))?.[1];
    if (named) return named === "English" ? "en" : "pt";
  }
  return undefined;
}
