/**
 * The stream log's keys and records in KV, and the byte handling of its batches (key schema
 * in stream_log.ts).
 */
import { KV_LIMITS } from "./kv.ts";
import type { StreamOutcome } from "./ports.ts";

/** One stored part of a batch. */
export interface StreamBatchPart {
  k: "b";
  first: number;
  count: number;
  part: number;
  parts: number;
  data: Uint8Array;
}

/** The last value of a stream. */
export interface StreamEndRecord {
  k: "e";
  total: number;
  outcome: StreamOutcome;
  at: number;
}

/** What `["stream_head", streamId]` holds. */
export interface StreamHead {
  /** Seq of the next value (all seqs below are written). */
  seq: number;
  /** Chunks written. */
  chunks: number;
  heartbeatAt: number;
  done: boolean;
}

/** A value of `["stream", streamId, seq]`. */
export type StreamValue = StreamBatchPart | StreamEndRecord;

/** Most bytes of one batch part. */
export const PART_BYTES = KV_LIMITS.chunkBytes;
/** Parts per commit, keeping a commit under KV's 800 KiB. */
export const PARTS_PER_COMMIT = Math.floor((KV_LIMITS.maxCommitBytes - 20 * 1024) / PART_BYTES);

/** The stream log's keys. */
export const keys = {
  value: (streamId: string, seq: number): Deno.KvKey => ["stream", streamId, seq],
  head: (streamId: string): Deno.KvKey => ["stream_head", streamId],
  stop: (streamId: string): Deno.KvKey => ["stream_stop", streamId],
  pointer: (chatId: string): Deno.KvKey => ["chat_stream", chatId],
  listen: (streamId: string): Deno.KvKey => ["stream_listen", streamId],
};

const utf8 = new TextEncoder();

/**
 * The UTF-8 bytes of the JSON array of `items` (each a chunk's JSON text), encoded once for
 * the batch: a typed array per chunk cost an ArrayBuffer per chunk, hundreds a turn, which
 * is allocation V8's collector pays for.
 */
export function encodeArray(items: string[]): Uint8Array {
  return utf8.encode(`[${items.join(",")}]`);
}

/** `data` cut into parts of at most `size` bytes; `data` itself when it fits in one. */
export function splitBytes(data: Uint8Array, size: number): Uint8Array[] {
  if (data.length <= size) return [data];
  const parts: Uint8Array[] = [];
  // slice, not subarray: KV serialises a view's whole backing buffer.
  for (let at = 0; at < data.length; at += size) parts.push(data.slice(at, at + size));
  return parts;
}

/** The parts of a batch joined back into one array. */
export function joinBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, at), at += part.length;
  return out;
}
