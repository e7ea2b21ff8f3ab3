/**
 * Keeps citations honest while they stream: a `[N]` that names no numbered
 * passage of this turn is removed before it reaches the client (and so the
 * saved message), and valid/invalid counts go into the message metadata.
 */
import type { UIMessageChunk } from "ai";

/** Counts of checked citations. */
export interface CitationCounts {
  valid: number;
  invalid: number;
}

const CITATION = /\[(\d{1,3})\]/g;
// A suffix that may still become a citation once the next delta arrives.
const PARTIAL = /\[\d{0,3}$/;

/** Extra metadata to send with the final counts, before `finish` or `abort`. */
export type EndMetadata = (kind: "finish" | "abort") => Record<string, unknown>;

/**
 * A filter step: takes each chunk of the turn in order and passes on to `out`
 * what the client should get. Valid numbers are learned from `source-url`
 * chunks (sourceId is the number) and from `valid`, a set the search tool
 * fills as it numbers passages. Before `finish` or `abort` it passes on the
 * final counts as message metadata.
 *
 * A plain function, not a stream: the turn calls it for each of its hundreds
 * of chunks, and a stream hop would add a queue and promises to every one.
 */
export function citationFilter(
  counts: CitationCounts,
  valid: ReadonlySet<string> = new Set(),
  endMetadata?: EndMetadata,
): (chunk: UIMessageChunk, out: (chunk: UIMessageChunk) => void) => void {
  const known = new Set(valid);
  const pending = new Map<string, string>();

  function clean(text: string): string {
    return text.replace(CITATION, (m, n: string) => {
      if (known.has(n) || valid.has(n)) {
        counts.valid++;
        return m;
      }
      counts.invalid++;
      return "";
    });
  }

  return (chunk, out) => {
    if (chunk.type === "source-url") known.add(chunk.sourceId);
    if (chunk.type === "text-delta") {
      // Most deltas hold no "[" and nothing is pending: no citation can start or end in them.
      if (!chunk.delta.includes("[") && !pending.get(chunk.id)) {
        if (chunk.delta) out(chunk);
        return;
      }
      const text = (pending.get(chunk.id) ?? "") + chunk.delta;
      const hold = PARTIAL.exec(text);
      const ready = hold ? text.slice(0, hold.index) : text;
      pending.set(chunk.id, hold ? hold[0] : "");
      const cleaned = clean(ready);
      if (cleaned) out({ ...chunk, delta: cleaned });
      return;
    }
    // The counts are final only here, after every text chunk went through.
    if (chunk.type === "finish" || chunk.type === "abort") {
      out({
        type: "message-metadata",
        messageMetadata: { ...endMetadata?.(chunk.type), citations: { ...counts } },
      });
    }
    if (chunk.type === "text-end") {
      const rest = pending.get(chunk.id);
      pending.delete(chunk.id);
      if (rest) out({ type: "text-delta", id: chunk.id, delta: clean(rest) });
    }
    out(chunk);
  };
}
