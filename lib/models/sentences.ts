/** Sentence splitting shared by the offline model's answer builders. */

/**
 * Where a stop before a lower-case word ends no sentence: an abbreviation with inner stops
 * ("e.g.", "i.e.", "a.C.") or an interpreter's "..." continuation prompt. Other stops before a
 * lower-case word still end one, since some sites start sentences in lower case.
 */
const NO_END = /(?:^|[\s(])(?:\p{L}{1,2}\.\p{L}{1,2}\.|\.\.\.)$/u;

/** Splits passage text into sentences (and lines: a heading or list item is one). */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
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
    if (pending.length) out.push(pending.join(" "));
  }
  return out
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length > 0 && /[\p{L}\p{N}]/u.test(s));
}
