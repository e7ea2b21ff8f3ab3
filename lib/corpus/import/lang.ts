/**
 * A page's corpus language: the one asked for, the one it declares, or a
 * guess from its function words (the search's Snowball stopword lists).
 */
import { SNOWBALL_STOPWORDS } from "@/lib/search/snowball_stopwords.ts";
import type { DocLang } from "./types.ts";

const PT = new Set(SNOWBALL_STOPWORDS.pt);
const EN = new Set(SNOWBALL_STOPWORDS.en);

/** "pt" or "en" from a declared tag ("pt-BR", "en_US"…), or null when neither. */
export function declaredLang(tag: string | null | undefined): DocLang | null {
  const v = (tag ?? "").trim().toLowerCase().slice(0, 2);
  return v === "pt" || v === "en" ? v : null;
}

/** Which of pt and en the text's words look like (pt on a tie). */
export function guessLang(text: string): DocLang {
  let pt = 0;
  let en = 0;
  for (const w of text.toLowerCase().match(/[\p{L}']+/gu) ?? []) {
    if (PT.has(w) && !EN.has(w)) pt++;
    else if (EN.has(w) && !PT.has(w)) en++;
  }
  return en > pt ? "en" : "pt";
}

/** The language of a document: forced by `--lang pt|en`, else declared, else guessed. */
export function pickLang(option: "pt" | "en" | "auto", declared: string, text: string): DocLang {
  if (option !== "auto") return option;
  return declaredLang(declared) ?? guessLang(text);
}
