/**
 * Keeps citations honest while they stream: a `[N]` that names no numbered
 * passage of this turn is removed before it reaches the client (and so the
 * saved message), and valid/invalid counts go into the message metadata.
 */
import type { UIMessageChunk } from "ai";
import { type CodeScan, newCodeScan, scanCode, trailingFenceRun } from "@/lib/text/code_spans.ts";

/** Counts of checked citations. */
export interface CitationCounts {
  valid: number;
  invalid: number;
}

const CITATION = /\[(\d{1,3})\]/g;

/** Spaces that go with a removed citation: "e [9]." becomes "e.", not "e .". */
const isBlank = (c: string) => c === " " || c === "\t";
/**
 * At most this many blanks go with a removed citation, and so are held at the end of a delta.
 * Unbounded, a stream of blank-only deltas would rescan all the held blanks at every delta.
 */
const MAX_BLANKS = 16;

/**
 * Where the suffix starts that must wait for the next delta: an unclosed `[`, `[1`… (it may
 * still become a citation) and the blanks before it, or trailing blanks (a citation may
 * follow them). Index scans: an end-anchored regex would be quadratic on long runs.
 */
function heldFrom(text: string): number {
  let i = text.length;
  const open = text.lastIndexOf("[");
  if (open >= 0 && text.length - open <= 4) {
    let digits = true;
    for (let j = open + 1; j < text.length; j++) digits &&= text[j] >= "0" && text[j] <= "9";
    if (digits) i = open;
  }
  const floor = Math.max(0, i - MAX_BLANKS);
  while (i > floor && isBlank(text[i - 1])) i--;
  return i;
}

/**
 * Removes up to `MAX_BLANKS` blanks at the end of the last of `pieces`, the text since the
 * previous citation: blanks before an earlier removed citation went with that one.
 */
function dropTrailingBlanks(pieces: string[]): void {
  const last = pieces[pieces.length - 1] ?? "";
  let end = last.length;
  while (end > 0 && last.length - end < MAX_BLANKS && isBlank(last[end - 1])) end--;
  pieces[pieces.length - 1] = last.slice(0, end);
}

/** A held suffix at the end of the text: an unclosed citation number is dropped, the rest kept. */
function flushHeld(held: string): string {
  const open = held.lastIndexOf("[");
  return open >= 0 && held.length - open > 1 ? held.slice(0, open).trimEnd() : held;
}

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

  const scans = new Map<string, CodeScan>();
  const scanOf = (id: string): CodeScan => {
    let scan = scans.get(id);
    if (!scan) scans.set(id, scan = newCodeScan());
    return scan;
  };

  /** `text` without unknown citations and the blanks before each; code is left as written. */
  function clean(text: string, scan: CodeScan): string {
    const code = scanCode(text, scan);
    const pieces: string[] = [];
    let from = 0;
    for (const match of text.matchAll(CITATION)) {
      pieces.push(text.slice(from, match.index));
      from = match.index + match[0].length;
      // `items[0]`, `grid[2][3]`: an index in code, not a citation.
      if (code[match.index]) {
        pieces.push(match[0]);
        continue;
      }
      if (known.has(match[1]) || valid.has(match[1])) {
        counts.valid++;
        pieces.push(match[0]);
        continue;
      }
      counts.invalid++;
      dropTrailingBlanks(pieces);
    }
    pieces.push(text.slice(from));
    return pieces.join("");
  }

  return (chunk, out) => {
    if (chunk.type === "source-url") known.add(chunk.sourceId);
    if (chunk.type === "text-delta") {
      // Most deltas hold no "[", end in no blank or backtick and nothing is pending: no
      // citation can start or end in them, and no blank before one is waiting to be dropped.
      // They only move the code scan on.
      const last = chunk.delta.at(-1) ?? "";
      if (
        !chunk.delta.includes("[") && !pending.get(chunk.id) && !isBlank(last) &&
        last !== "`" && last !== "~"
      ) {
        scanCode(chunk.delta, scanOf(chunk.id));
        if (chunk.delta) out(chunk);
        return;
      }
      const text = (pending.get(chunk.id) ?? "") + chunk.delta;
      // A run of backticks may go on in the next delta: "``" then "`py" opens a fence.
      const held = Math.min(heldFrom(text), trailingFenceRun(text));
      pending.set(chunk.id, text.slice(held));
      const cleaned = clean(text.slice(0, held), scanOf(chunk.id));
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
      const last = rest ? clean(flushHeld(rest), scanOf(chunk.id)) : "";
      scans.delete(chunk.id);
      if (last) out({ type: "text-delta", id: chunk.id, delta: last });
    }
    out(chunk);
  };
}
