/**
 * A turn's UI message chunks, logged in Deno KV so any isolate can replay and
 * follow an answer in flight, and stop it.
 *
 * Key schema (every key is written with `expireIn`, `expireInMs` after its
 * last write; a stream is short-lived, the saved message is the record):
 *
 *   ["stream", streamId, seq]   → StreamBatchPart | StreamEndRecord
 *                                 seq counts values from 0 without gaps. A batch is the
 *                                 UTF-8 JSON array of its chunks, split into ≤ 60 KiB parts
 *                                 (consecutive seqs); `first` is the chunk index of its first
 *                                 chunk. The last value is the end record.
 *   ["stream_head", streamId]   → StreamHead { seq, chunks, heartbeatAt, done }: written at the
 *                                 open, by heartbeats and at the end, not with every batch (a
 *                                 batch is one mutation, not two); followers watch it and the
 *                                 key of the next value they expect
 *   ["stream_stop", streamId]   → { at }: a stop request, watched by the producer
 *   ["stream_listen", streamId] → { at }: the last time a follower (another isolate's
 *                                 GET /stream) said it still reads; the producer aborts a
 *                                 turn nobody reads (config `abandonAfterSeconds`), and
 *                                 watches it to know that someone follows
 *   ["chat_stream", chatId]     → StreamPointer: the chat's running stream; cleared by the
 *                                 stream's end only while it still names that stream
 *
 * Quiet and live: while nobody follows a stream, which is almost always, its producer writes a
 * batch every `quietFlushMs` (250 ms); once a follower touches the stream's listen key, it
 * writes what it holds at once and then every `flushMs` (50 ms). A batch is a KV write the host
 * pays for and CPU of the producer's, so a 1,000-token answer at 100 tokens a second nobody
 * follows costs about 50 batches instead of 200. A producer that dies unfollowed loses at most
 * its last quarter second from the log: a reload still shows the answer cut off, with Retry.
 *
 * `kv.watch` is the fast path; because a local SQLite file does not tell one
 * process about another's writes, watchers of such a KV also poll every `pollMs`. Where
 * `kv.watch` sees every writer (Deno Deploy, KV Connect, `:memory:`) nothing polls: on Deno
 * Deploy a poll is a billed read, ten a second for every running stream.
 *
 * Its parts: stream_keys.ts (keys, records, batch bytes), stream_writer.ts and
 * stream_writes.ts (the producer), stream_follow.ts (a follower), stream_watch.ts (watch and
 * poll). Its interfaces are in lib/store/ports.ts.
 */
import type { StreamLog, StreamPointer } from "./ports.ts";
import { commitWithRetry } from "./kv.ts";
import { createKeyPoller } from "./key_poller.ts";
import { createCommitGroup } from "./commit_group.ts";
import { createFlushClock } from "@/lib/flush_clock.ts";
import type { StreamKv } from "./stream_context.ts";
import { keys, type StreamHead } from "./stream_keys.ts";
import { openWriter } from "./stream_writer.ts";
import { followStream, touchListener } from "./stream_follow.ts";

/** Options of {@linkcode createStreamLog}. */
export interface StreamLogOptions {
  clock?: () => number;
  /** Lifetime of every key after its last write. Default 10 minutes. */
  expireInMs?: number;
  /** Longest a chunk waits in the buffer while someone follows the stream. Default 50 ms. */
  flushMs?: number;
  /** Longest a chunk waits in the buffer while nobody follows the stream. Default 250 ms. */
  quietFlushMs?: number;
  /** Buffered size (UTF-16 units of the chunks' JSON, about bytes) that triggers a flush at once. Default 4096. */
  flushBytes?: number;
  /**
   * Poll interval backing `kv.watch` (stop requests, new batches). Default 100 ms; `null`
   * when `kv.watch` sees every writer of this KV (see {@linkcode kvWatchSeesEveryWriter}).
   */
  pollMs?: number | null;
}

/**
 * How often a reader of a stream shows it is there (followers touch, the producer checks),
 * for a turn aborted after `abandonAfterSeconds` unread: a third of it, at most 5 s.
 */
export function listenCheckMs(abandonAfterSeconds: number): number {
  return Math.max(50, Math.min(5_000, (abandonAfterSeconds * 1000) / 3));
}

/** Creates the log over `kv`. Example: `const log = createStreamLog(kv); const w = log.open(chatId, id, visitor);` */
export function createStreamLog(kv: Deno.Kv, options: StreamLogOptions = {}): StreamLog {
  const flushMs = options.flushMs ?? 50;
  const s: StreamKv = {
    kv,
    clock: options.clock ?? Date.now,
    expireIn: options.expireInMs ?? 10 * 60_000,
    flushBytes: options.flushBytes ?? 4096,
    poller: options.pollMs === null ? null : createKeyPoller(kv, options.pollMs ?? 100),
    group: createCommitGroup(kv),
    flushes: createFlushClock(flushMs),
    flushMs,
    quietFlushMs: options.quietFlushMs ?? 250,
  };
  return {
    open: (chatId, streamId, visitorId) => openWriter(s, { chatId, streamId, visitorId }),
    active: (chatId) => readActive(kv, chatId),
    follow: (streamId, followOptions = {}) => followStream(s, streamId, followOptions),
    async requestStop(streamId) {
      await commitWithRetry(
        kv.atomic().set(keys.stop(streamId), { at: s.clock() }, { expireIn: s.expireIn }),
      );
    },
    touchListener: (streamId) => touchListener(s, streamId),
    async lastListenedAt(streamId) {
      return (await kv.get<{ at: number }>(keys.listen(streamId))).value?.at ?? null;
    },
  };
}

async function readActive(kv: Deno.Kv, chatId: string): Promise<StreamPointer | null> {
  const pointer = (await kv.get<StreamPointer>(keys.pointer(chatId))).value;
  if (!pointer) return null;
  const head = (await kv.get<StreamHead>(keys.head(pointer.streamId))).value;
  if (head?.done) return null;
  return { ...pointer, heartbeatAt: Math.max(pointer.heartbeatAt, head?.heartbeatAt ?? 0) };
}
