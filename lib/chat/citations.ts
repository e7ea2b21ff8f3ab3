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

/**
 * A transform over UI message chunks. Valid numbers are learned from
 * `source-url` chunks (sourceId is the number) that pass through it, and from
 * `valid`, a set the search tool fills as it numbers passages (its sources are
 * written beside this stream, not through it). Before `finish` or `abort` it
 * emits the final counts as message metadata.
 */
/** Hooks of the turn that ride on the same transform (one stream hop less per chunk). */
export interface CitationHooks {
  /** Sees every chunk before it is filtered. */
  onChunk?: (chunk: UIMessageChunk) => void;
  /** Extra metadata to send with the final counts, before `finish` or `abort`. */
  endMetadata?: (kind: "finish" | "abort") => Record<string, unknown>;
}

export function citationFilter(
  counts: CitationCounts,
  valid: ReadonlySet<string> = new Set(),
  hooks: CitationHooks = {},
): TransformStream<UIMessageChunk, UIMessageChunk> {
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

  return new TransformStream({
    transform(chunk, controller) {
      hooks.onChunk?.(chunk);
      if (chunk.type === "source-url") known.add(chunk.sourceId);
      if (chunk.type === "text-delta") {
        // Most deltas hold no "[" and nothing is pending: no citation can start or end in them.
        if (!chunk.delta.includes("[") && !pending.get(chunk.id)) {
          if (chunk.delta) controller.enqueue(chunk);
          return;
        }
        const text = (pending.get(chunk.id) ?? "") + chunk.delta;
        const hold = PARTIAL.exec(text);
        const ready = hold ? text.slice(0, hold.index) : text;
        pending.set(chunk.id, hold ? hold[0] : "");
        const out = clean(ready);
        if (out) controller.enqueue({ ...chunk, delta: out });
        return;
      }
      // The counts are final only here, after every text chunk went through.
      if (chunk.type === "finish" || chunk.type === "abort") {
        controller.enqueue({
          type: "message-metadata",
          messageMetadata: { ...hooks.endMetadata?.(chunk.type), citations: { ...counts } },
        });
      }
      if (chunk.type === "text-end") {
        const rest = pending.get(chunk.id);
        pending.delete(chunk.id);
        if (rest) controller.enqueue({ type: "text-delta", id: chunk.id, delta: clean(rest) });
      }
      controller.enqueue(chunk);
    },
  });
}
