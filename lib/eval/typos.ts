/**
 * A question as a visitor in a hurry types it: two neighbouring letters of its longest word
 * (five letters or more) swapped, near the word's middle ("linguagem" → "linugagem"). One
 * fixed typo per question, so `deno task eval --typos` and `eval:answers --typos` measure
 * the same questions on every run.
 */

/** Shortest word a typo is put in. */
const MIN_LETTERS = 5;

/** `text` with one swap of neighbouring letters in its longest word; unchanged without one. */
export function withTypo(text: string): string {
  let longest: RegExpExecArray | null = null;
  for (const m of text.matchAll(/\p{L}+/gu)) {
    if (m[0].length >= MIN_LETTERS && (!longest || m[0].length > longest[0].length)) {
      longest = m as RegExpExecArray;
    }
  }
  if (!longest) return text;
  const word = longest[0];
  let i = Math.floor(word.length / 2) - 1;
  // Swapping a doubled letter changes nothing: take the pair before it.
  if (word[i] === word[i + 1]) i--;
  const typo = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  return text.slice(0, longest.index) + typo + text.slice(longest.index + word.length);
}
