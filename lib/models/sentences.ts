/** Sentence splitting shared by the offline model's answer builders. */

/**
 * Where a stop before a lower-case word ends no sentence: an abbreviation with inner stops
 * ("e.g.", "i.e.", "a.C.") or an interpreter's "..." continuation prompt. Other stops before a
 * lower-case word still end one, since some sites start sentences in lower case.
 */
const NO_END = /(?:^|[\s(])(?:\p{L}{1,2}\.\p{L}{1,2}\.|\.\.\.)$/u;

const YES_NO = /^\s*(?:sim|n[aã]o|yes|no)\s*$/iu;

/** Splits passage text into sentences (and lines: a heading or list item is one). */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const lineStart = out.length;
    // Pieces of one sentence, joined once: joining as they come rescans a long merged run.
    let pending: string[] = [];
    for (const piece of line.split(/(?<=[.!?…])\s+/u)) {
      const last = pending.at(-1);
      if (last !== undefined && !(NO_END.test(last) && /^\p{Ll}/u.test(piece))) {
        out.push(pending.join(" "));
        pending = [];
      }
      pending.push(piece);
    }
    // A lone word with no stop after a sentence of its line is a heading the page's text ran
    // into ("…alternative. Databases"); a one-word line (a list item) or a bare yes or no stays.
    const tail = pending.join(" ");
    const runIn = out.length > lineStart && /^\p{L}+$/u.test(tail.trim()) && !YES_NO.test(tail);
    if (pending.length && !runIn) out.push(tail);
  }
  return out
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length > 0 && /[\p{L}\p{N}]/u.test(s));
}
