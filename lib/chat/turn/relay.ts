/**
 * Where the engine's chunks go: the site search's numbered passages become `source-url`
 * chunks (read from the tool's output, the data the turn returns as its sources), every
 * chunk goes through the citation filter into the saved answer, and chunks are held until
 * the first content chunk; after that, straight to the output.
 */
import type { UIMessageChunk } from "ai";
import type { MessageBuilder } from "@/lib/protocol/message_builder.ts";
import { type NumberedSource, numberedSources, SEARCH_TOOL } from "@/lib/tools/search_site.ts";
import { type CitationCounts, citationFilter } from "../citations.ts";
import type { PrefetchCall } from "../engine/prefetch_step.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

/**
 * Chunk types that do not open the stream: the first token is the first chunk after them.
 * An abort before any content means nobody is reading: the turn ends unopened. The
 * prefetched search's chunks (up to its output) are preamble too: they come before any model
 * call, and a provider failing on its first call is still a JSON 502.
 */
const PREAMBLE = new Set(["start", "start-step", "finish-step", "message-metadata", "abort"]);

/** What opened the stream: content, or an error before any content. */
export type Opening = "content" | "error";

/** The relay of one turn. */
export interface Relay {
  /** The engine's sink. */
  emit(chunk: UIMessageChunk): void;
  /** Resolves at the first chunk that is not preamble. */
  readonly opened: Promise<Opening>;
  /** Milliseconds from the turn's start to its first text or reasoning delta. */
  ttftMs(): number | undefined;
  /** The passages the site search numbered in this turn, in order. */
  readonly sources: readonly NumberedSource[];
  /** Citations kept and dropped by the filter. */
  readonly citations: CitationCounts;
  /** Sends the held chunks and every later one to `to`. */
  flushTo(to: (chunk: UIMessageChunk) => void): void;
}

/** Options of {@linkcode createRelay}. */
export interface RelayOptions {
  /** The answer as the client builds it, kept for the save. */
  answer: MessageBuilder<ChatMessage>;
  prefetch: PrefetchCall | null;
  /** Milliseconds since the turn started. */
  elapsed: () => number;
}

/** The relay of a turn. */
export function createRelay({ answer, prefetch, elapsed }: RelayOptions): Relay {
  const citations: CitationCounts = { valid: 0, invalid: 0 };
  const citable = new Set<string>();
  const sources: NumberedSource[] = [];
  const searches = new Set<string>();
  const head: UIMessageChunk[] = [];
  let forward: ((chunk: UIMessageChunk) => void) | null = null;
  let ttftMs: number | undefined;
  // Until the prefetched search answered, its chunks do not open the stream.
  let prefetching = prefetch !== null;
  let open!: (first: Opening) => void;
  const opened = new Promise<Opening>((resolve) => (open = resolve));
  const filter = citationFilter(
    citations,
    citable,
    (kind) =>
      kind === "abort" ? { finishReason: "aborted", outcome: "stopped", latencyMs: elapsed() } : {},
  );
  const deliver = (chunk: UIMessageChunk) => {
    if (ttftMs === undefined && (chunk.type === "text-delta" || chunk.type === "reasoning-delta")) {
      ttftMs = elapsed();
    }
    if (chunk.type !== "error") answer.apply(chunk);
    if (forward) return forward(chunk);
    head.push(chunk);
    if (prefetching) {
      prefetching = !isPrefetchOutput(chunk, prefetch!.toolCallId);
      if (chunk.type !== "error" && chunk.type !== "abort") return;
    }
    if (!PREAMBLE.has(chunk.type)) open(chunk.type === "error" ? "error" : "content");
  };
  /** The passages a search output numbers first in this turn, as `source-url` chunks. */
  const announceSources = (output: unknown) => {
    for (const source of numberedSources(output)) {
      if (citable.has(String(source.n))) continue;
      citable.add(String(source.n));
      sources.push(source);
      const { n, url, title } = source;
      filter({ type: "source-url", sourceId: String(n), url, title }, deliver);
    }
  };
  return {
    emit(chunk) {
      if (chunk.type === "tool-input-start" || chunk.type === "tool-input-available") {
        if (chunk.toolName === SEARCH_TOOL) searches.add(chunk.toolCallId);
      } else if (chunk.type === "tool-output-available" && searches.has(chunk.toolCallId)) {
        announceSources(chunk.output);
      }
      filter(chunk, deliver);
    },
    opened,
    ttftMs: () => ttftMs,
    sources,
    citations,
    flushTo(to) {
      forward = to;
      head.forEach(to);
      head.length = 0;
    },
  };
}

/** Whether `chunk` is the output (or error) of the prefetched call `toolCallId`. */
function isPrefetchOutput(chunk: UIMessageChunk, toolCallId: string): boolean {
  return (chunk.type === "tool-output-available" || chunk.type === "tool-output-error") &&
    chunk.toolCallId === toolCallId;
}
