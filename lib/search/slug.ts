/**
 * Heading ids. The page renderer must use these functions too, so that a
 * passage URL's `#anchor` lands on the heading it came from.
 */
import { fold } from "./analyzer.ts";

/**
 * A URL-safe id for a heading: accent-folded, lower case, runs of anything
 * but a–z/0–9 become one "-". Empty results become "section".
 *
 * @example slugify("Como funciona: o Streaming") // "como-funciona-o-streaming"
 */
export function slugify(text: string): string {
  const s = fold(text).replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return s || "section";
}

/**
 * A slugger for one page: a repeated heading gets "-1", "-2"… as GitHub does.
 * Create one per document and call it for each heading in order.
 *
 * @example const slug = createSlugger(); slug("Uso"); slug("Uso") // "uso", "uso-1"
 */
export function createSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text: string) => {
    const base = slugify(text);
    let slug = base;
    let n = seen.get(base) ?? 0;
    while (seen.has(slug)) slug = `${base}-${++n}`;
    seen.set(base, n);
    seen.set(slug, seen.get(slug) ?? 0);
    return slug;
  };
}
