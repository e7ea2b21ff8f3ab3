/** Sentence splitting shared by the offline model's answer builders. */

/** Splits passage text into sentences (and lines: a heading or list item is one). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length > 0 && /[\p{L}\p{N}]/u.test(s));
}
