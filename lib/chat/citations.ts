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

/** Hooks of the turn that ride on the same stream (one stream hop less per chunk). */
export interface CitationHooks {
  /** Sees every chunk before it is filtered. */
  onChunk?: (chunk: UIMessageChunk) => void;
  /** Extra metadata to send with the final counts, before `finish` or `abort`. */
  endMetadata?: (kind: "finish" | "abort") => Record<string, unknown>;
}

/**
 * The chunks of `source` with citations checked. Valid numbers are learned from
 * `source-url` chunks (sourceId is the number) that pass through it, and from
 * `valid`, a set the search tool fills as it numbers passages (its sources are
 * written beside this stream, not through it). Before `finish` or `abort` it
 * emits the final counts as message metadata.
 *
 * A pull stream over the source's reader rather than a TransformStream: a pipe
 * adds a writable queue and its promises to each of a turn's hundreds of chunks.
 */
export function filterCitations(
  source: ReadableStream<UIMessageChunk>,
  counts: CitationCounts,
  valid: ReadonlySet<string> = new Set(),
  hooks: CitationHooks = {},
): ReadableStream<UIMessageChunk> {
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

  const reader = source.getReader();
  /** Passes one chunk on, filtered; false when nothing was sent for it. */
  function step(
    chunk: UIMessageChunk,
    controller: ReadableStreamDefaultController<UIMessageChunk>,
  ): boolean {
    hooks.onChunk?.(chunk);
    if (chunk.type === "source-url") known.add(chunk.sourceId);
    if (chunk.type === "text-delta") {
      // Most deltas hold no "[" and nothing is pending: no citation can start or end in them.
      if (!chunk.delta.includes("[") && !pending.get(chunk.id)) {
        if (!chunk.delta) return false;
        controller.enqueue(chunk);
        return true;
      }
      const text = (pending.get(chunk.id) ?? "") + chunk.delta;
      const hold = PARTIAL.exec(text);
      const ready = hold ? text.slice(0, hold.index) : text;
      pending.set(chunk.id, hold ? hold[0] : "");
      const out = clean(ready);
      if (!out) return false;
      controller.enqueue({ ...chunk, delta: out });
      return true;
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
    return true;
  }

  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      // A held or emptied delta sends nothing: read on until something is sent, since no
      // further pull comes while the reader that asked still waits.
      while (true) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (step(value, controller)) return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
