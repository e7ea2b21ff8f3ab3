/**
 * Suggested questions for an empty chat, taken from the site's own content: the questions its
 * pages answer (headings ending in "?", the FAQ entries the search knows by the same rule),
 * then page titles, in the visitor's language. A fixed list in the config goes stale or off
 * topic as soon as the owner's content is not the demo's.
 */
import { readFileSync } from "node:fs";
import type { Locale } from "@/lib/i18n/mod.ts";
import type { DocPageData, DocPages } from "./pages.ts";

/**
 * Where `deno task build` writes every locale's suggestions. Reading the corpus pages means
 * loading markdown-it and rendering every page (about 150 ms), which the first page of a
 * cold isolate must not wait for; the build does it once instead.
 */
export const SUGGESTIONS_ASSET: URL = new URL("../../build/suggestions.json", import.meta.url);

const LOCALES: readonly Locale[] = ["pt-BR", "en"];

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

/** Every locale's suggestions from `pages`, as the build writes them. */
export async function suggestionsByLocale(pages: DocPages): Promise<Record<Locale, string[]>> {
  const all = await pages.all();
  return Object.fromEntries(LOCALES.map((l) => [l, contentSuggestions(all, l)])) as Record<
    Locale,
    string[]
  >;
}

let built: Promise<Record<Locale, string[]>> | null = null;

/** The build's suggestions, or (no build yet, as in a fresh `deno task dev`) the pages'. */
function builtSuggestions(): Promise<Record<Locale, string[]>> {
  built ??= (async () => {
    try {
      return JSON.parse(readFileSync(SUGGESTIONS_ASSET, "utf8")) as Record<Locale, string[]>;
    } catch {
      const { docPages } = await import("./pages.ts");
      return suggestionsByLocale(docPages);
    }
  })();
  return built;
}

/**
 * The suggestions an empty chat shows in `locale`: the owner's own list when the config has
 * one for that language, else the site's questions and titles — from `pages` when given,
 * else as the build wrote them (none when neither can be read: the chat works without them).
 */
export async function siteSuggestions(
  locale: Locale,
  configured: Partial<Record<Locale, string[]>> | undefined,
  pages?: DocPages,
): Promise<string[]> {
  const own = configured?.[locale];
  if (own?.length) return own;
  try {
    if (pages) return contentSuggestions(await pages.all(), locale);
    return (await builtSuggestions())[locale] ?? [];
  } catch (error) {
    built = null;
    console.error("Could not read the corpus pages for suggested questions:", error);
    return [];
  }
}
