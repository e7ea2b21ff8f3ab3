/**
 * What goes out to the visitor once the stream opens: deltas merged on the shared clock
 * (lib/chat/delta_merge.ts), each chunk turned into JSON once for the visitor's sink and the
 * stream log alike, and the chunks held until the first token sent in one write.
 */
import type { UIMessageChunk } from "ai";
import { type DeltaMerger, deltaMerger } from "../delta_merge.ts";
import type { LogProducer } from "./log_producer.ts";
import type { Relay } from "./relay.ts";

/**
 * Where a turn's chunks go, each as its JSON text: the SSE body of the HTTP adapter
 * (lib/chat/sse.ts `sseWriter` is one), or a test's array.
 */
export interface TurnSink {
  /** Sends one chunk given as its JSON. */
  sendJson(json: string): void;
  /** Sends chunks given as their JSON in one write. */
  sendJsonAll(jsons: readonly string[]): void;
  /** Sends one chunk. */
  send(chunk: UIMessageChunk): void;
  /** Ends the output. */
  close(): void;
  /** Whether the reader is still there. */
  readonly open: boolean;
}

/** Routes the relay's chunks to `sink` and the log from now on; flush the result at the end. */
export function startOutput(
  relay: Relay,
  sink: TurnSink,
  log: LogProducer,
  mergeMs: number,
): DeltaMerger {
  // The chunks held until the first token (the start, a prefetched search, the first
  // delta): sent in one write, so the first token arrives with them, not several writes later.
  let held: string[] | null = [];
  const merged = deltaMerger((chunk) => {
    const json = JSON.stringify(chunk);
    if (held) held.push(json);
    else sink.sendJson(json);
    log.append(chunk, json);
  }, mergeMs);
  relay.flushTo(merged.push);
  merged.flush(); // the held chunks go out whole, merged deltas included
  sink.sendJsonAll(held);
  held = null;
  return merged;
}
