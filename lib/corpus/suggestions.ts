/**
 * Suggested questions for an empty chat, taken from the site's own content: the questions its
 * pages answer (headings ending in "?", the FAQ entries the search knows by the same rule),
 * then page titles, in the visitor's language. A fixed list in the config goes stale or off
 * topic as soon as the owner's content is not the demo's.
 */
import type { Locale } from "@/lib/i18n/mod.ts";
import { type DocPageData, type DocPages, docPages } from "./pages.ts";

/** How many suggestions an empty chat shows. */
export const SUGGESTION_COUNT = 3;

const QUESTION = /\?\s*$/;

/**
 * Up to `count` suggestions from `pages` in `locale`'s language: questions first, one page at a
 * time in turn (so one long FAQ does not fill them all), then the titles of pages with none.
 *
 * @example
 * ```ts
 * contentSuggestions(await docPages.all(), "pt-BR"); // ["O assistente pode inventar coisas?", …]
 * ```
 */
export function contentSuggestions(
  pages: readonly DocPageData[],
  locale: Locale,
  count = SUGGESTION_COUNT,
): string[] {
  const lang = locale === "en" ? "en" : "pt";
  const own = pages.filter((p) => p.lang === lang);
  const questions = own.map((p) =>
    p.headings.map((h) => h.text.trim()).filter((text) => QUESTION.test(text))
  );
  const out: string[] = [];
  for (let round = 0; out.length < count; round++) {
    const picked = questions.flatMap((list) => list[round] ?? []);
    if (!picked.length) break;
    for (const q of picked) if (out.length < count && !out.includes(q)) out.push(q);
  }
  for (const page of own) {
    if (out.length >= count) break;
    if (!out.includes(page.title)) out.push(page.title);
  }
  return out;
}

/**
 * The suggestions an empty chat shows in `locale`: the owner's own list when the config has
 * one for that language, else `contentSuggestions` of the corpus pages (none when the corpus
 * cannot be read: the chat works without them).
 */
export async function siteSuggestions(
  locale: Locale,
  configured: Partial<Record<Locale, string[]>> | undefined,
  pages: DocPages = docPages,
): Promise<string[]> {
  const own = configured?.[locale];
  if (own?.length) return own;
  try {
    return contentSuggestions(await pages.all(), locale);
  } catch (error) {
    console.error("Could not read the corpus pages for suggested questions:", error);
    return [];
  }
}
