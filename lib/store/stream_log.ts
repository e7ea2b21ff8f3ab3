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
 */
import type { UIMessageChunk } from "ai";
import { commitWithRetry, KV_LIMITS } from "./kv.ts";
import { createKeyPoller, type KeyPoller } from "./key_poller.ts";
import { type CommitGroup, createCommitGroup, type GroupedSet } from "./commit_group.ts";
import { createFlushClock, type FlushClock } from "@/lib/flush_clock.ts";

/** What `["chat_stream", chatId]` holds and {@linkcode StreamLog.active} returns. */
export interface StreamPointer {
  streamId: string;
  visitorId: string;
  startedAt: number;
  /** Last sign of life of the producer (epoch ms): its last batch or heartbeat. */
  heartbeatAt: number;
}

/** How a stream ended; written in its end record. */
export type StreamOutcome = "finished" | "stopped" | "failed" | "interrupted";

/** Counters of what a writer wrote, for figures. */
export interface StreamWriteStats {
  /** KV commits (atomic operations). */
  commits: number;
  /** Keys set or deleted across those commits. */
  mutations: number;
  /** Bytes of values written (chunk payload exactly; small records estimated as JSON). */
  bytes: number;
  /** Chunk batches written. */
  batches: number;
}

/** The producer's side of one stream. */
export interface StreamWriter {
  readonly streamId: string;
  /**
   * Buffers a chunk; never waits and never throws (write failures are logged). `json`, when
   * the caller has it, is `JSON.stringify(chunk)` (it is not made a second time).
   */
  append(chunk: UIMessageChunk, json?: string): void;
  /** Flushes, and records that the producer is alive (call it every few seconds). */
  heartbeat(): Promise<void>;
  /** Flushes, writes the end record and clears the chat's pointer if it still names this stream. */
  end(outcome: StreamOutcome): Promise<void>;
  /** Whether a stop was requested (see {@linkcode StreamLog.requestStop}). */
  stopped(): boolean;
  /** Calls `fn` once when a stop is requested (at once if it already was); returns an unsubscribe. */
  onStop(fn: () => void): () => void;
  stats(): StreamWriteStats;
}

/** Options of {@linkcode StreamLog.follow}. */
export interface FollowOptions {
  /** Index of the first chunk wanted (chunks the caller already has are skipped). Default 0. */
  fromIndex?: number;
  signal?: AbortSignal;
  /** A producer silent for longer ends the stream with {@linkcode INTERRUPTED_CHUNK}. Default 15 s. */
  staleAfterMs?: number;
}

/** The chunk log of running streams. */
export interface StreamLog {
  /** Starts logging a stream of `chatId` and points the chat at it. */
  open(chatId: string, streamId: string, visitorId: string): StreamWriter;
  /** The chat's running stream, or null. */
  active(chatId: string): Promise<StreamPointer | null>;
  /**
   * Replays the stream from `fromIndex` and follows it until it ends; it touches the stream's
   * listen key at its start, which turns the producer live.
   */
  follow(streamId: string, options?: FollowOptions): ReadableStream<UIMessageChunk>;
  /** Asks the stream's producer, wherever it runs, to stop. */
  requestStop(streamId: string): Promise<void>;
  /** Records that a follower still reads the stream (call it every few seconds while it does). */
  touchListener(streamId: string): Promise<void>;
  /** When a follower last said it reads the stream (epoch ms), or null. */
  lastListenedAt(streamId: string): Promise<number | null>;
}

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

/** The `errorText` of {@linkcode INTERRUPTED_CHUNK}. */
export const STREAM_INTERRUPTED_TEXT = "Stream interrupted: its producer stopped responding.";

/** The last chunk of a followed stream whose producer died or whose log has a hole. */
export const INTERRUPTED_CHUNK: UIMessageChunk = Object.freeze({
  type: "error",
  errorText: STREAM_INTERRUPTED_TEXT,
});

/** Whether `chunk` is the {@linkcode INTERRUPTED_CHUNK} marker. */
export function isInterruptedChunk(chunk: UIMessageChunk): boolean {
  return chunk.type === "error" && chunk.errorText === STREAM_INTERRUPTED_TEXT;
}

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

type StreamValue = StreamBatchPart | StreamEndRecord;

const PART_BYTES = KV_LIMITS.chunkBytes;
/** Parts per commit, keeping a commit under KV's 800 KiB. */
const PARTS_PER_COMMIT = Math.floor((KV_LIMITS.maxCommitBytes - 20 * 1024) / PART_BYTES);

const keys = {
  value: (streamId: string, seq: number): Deno.KvKey => ["stream", streamId, seq],
  head: (streamId: string): Deno.KvKey => ["stream_head", streamId],
  stop: (streamId: string): Deno.KvKey => ["stream_stop", streamId],
  pointer: (chatId: string): Deno.KvKey => ["chat_stream", chatId],
  listen: (streamId: string): Deno.KvKey => ["stream_listen", streamId],
};

interface Resolved {
  clock: () => number;
  expireIn: number;
  flushBytes: number;
  /** One poll loop for the keys every writer and follower of this log watches; null: no polling. */
  poller: KeyPoller | null;
  /** The writers' batches, committed together. */
  group: CommitGroup;
  /** One flush clock for every writer, ticking every `flushMs`, so a tick's batches share commits. */
  flushes: FlushClock;
  flushMs: number;
  /**
   * Longest a chunk of a writer nobody follows waits. Such a writer flushes at the first tick
   * after its oldest chunk waited this long, so the writers' batches spread over the ticks: a
   * quiet clock of its own per writer cost a commit per batch (CPU per 1,000 tokens came back to
   * what 50 ms batches cost), and one quiet clock for all wrote a quarter second of every stream
   * in one commit, a pause every visitor's next chunk waited behind.
   */
  quietFlushMs: number;
}

/** Buffered size that flushes a writer nobody follows at once: a batch of one value or so. */
const QUIET_FLUSH_BYTES = 16 * 1024;

/** Creates the log over `kv`. Example: `const log = createStreamLog(kv); const w = log.open(chatId, id, visitor);` */
export function createStreamLog(kv: Deno.Kv, options: StreamLogOptions = {}): StreamLog {
  const flushMs = options.flushMs ?? 50;
  const o: Resolved = {
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
    open: (chatId, streamId, visitorId) => openWriter(kv, o, { chatId, streamId, visitorId }),
    active: (chatId) => readActive(kv, chatId),
    follow: (streamId, followOptions = {}) => followStream(kv, o, streamId, followOptions),
    async requestStop(streamId) {
      await commitWithRetry(
        kv.atomic().set(keys.stop(streamId), { at: o.clock() }, { expireIn: o.expireIn }),
      );
    },
    touchListener: (streamId) => touchListener(kv, o, streamId),
    async lastListenedAt(streamId) {
      return (await kv.get<{ at: number }>(keys.listen(streamId))).value?.at ?? null;
    },
  };
}

/** Marks `streamId` read by a follower now; the producer watches this (see the quiet pace). */
async function touchListener(kv: Deno.Kv, o: Resolved, streamId: string): Promise<void> {
  // A plain set: the last toucher wins, and a lost touch is made up by the next one.
  await kv.set(keys.listen(streamId), { at: o.clock() }, { expireIn: o.expireIn });
}

async function readActive(kv: Deno.Kv, chatId: string): Promise<StreamPointer | null> {
  const pointer = (await kv.get<StreamPointer>(keys.pointer(chatId))).value;
  if (!pointer) return null;
  const head = (await kv.get<StreamHead>(keys.head(pointer.streamId))).value;
  if (head?.done) return null;
  return { ...pointer, heartbeatAt: Math.max(pointer.heartbeatAt, head?.heartbeatAt ?? 0) };
}

/**
 * Calls `onValue` with `key`'s value on every KV watch event and every poll of `o.poller`, if
 * any (starting at once). The returned function stops both and resolves when they have.
 */
function watchKey<T>(
  kv: Deno.Kv,
  o: Resolved,
  key: Deno.KvKey,
  onValue: (value: T | null) => void,
): () => Promise<void> {
  return watchKeys(kv, o, [key], (_, value) => onValue(value as T | null));
}

/** {@linkcode watchKey} over several keys in one watch: `onValue` gets the key's index. */
function watchKeys(
  kv: Deno.Kv,
  o: Resolved,
  keys: Deno.KvKey[],
  onValue: (index: number, value: unknown) => void,
): () => Promise<void> {
  let stopped = false;
  const reader = kv.watch(keys).getReader();
  const watching = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || stopped) return;
        value.forEach((entry, i) => onValue(i, entry.value));
      }
    } catch { /* the handle closed: polling reports what it can */ }
  })();
  const unpolls = o.poller
    ? keys.map((key, i) => o.poller!.watch(key, (value) => stopped || onValue(i, value)))
    : [];
  return async () => {
    stopped = true;
    await reader.cancel().catch(() => {});
    await Promise.all([watching, ...unpolls.map((unpoll) => unpoll())]);
  };
}

const utf8 = new TextEncoder();

/**
 * The UTF-8 bytes of the JSON array of `items` (each a chunk's JSON text), encoded once for
 * the batch: a typed array per chunk cost an ArrayBuffer per chunk, hundreds a turn, which
 * is allocation V8's collector pays for.
 */
function encodeArray(items: string[]): Uint8Array {
  return utf8.encode(`[${items.join(",")}]`);
}

/** `data` cut into parts of at most `size` bytes; `data` itself when it fits in one. */
function splitBytes(data: Uint8Array, size: number): Uint8Array[] {
  if (data.length <= size) return [data];
  const parts: Uint8Array[] = [];
  // slice, not subarray: KV serialises a view's whole backing buffer.
  for (let at = 0; at < data.length; at += size) parts.push(data.slice(at, at + size));
  return parts;
}

interface Batch {
  first: number;
  /** The chunks' JSON texts. */
  items: string[];
}

interface WriterIds {
  chatId: string;
  streamId: string;
  visitorId: string;
}

/** What the KV writes of one writer share. */
interface WriteContext {
  kv: Deno.Kv;
  o: Resolved;
  ids: WriterIds;
  /**
   * `nextSeq`: the next value's seq; `committed`: chunks written; `pointerVs`: the versionstamp
   * of this writer's last write of the chat's pointer (the end clears the pointer with it as its
   * check, without reading it first), null when unknown.
   */
  state: { nextSeq: number; committed: number; pointerVs: string | null };
  stats: StreamWriteStats;
}

/**
 * The producer: a buffer, a chain of writes (so seqs stay in order), and a watch for a stop
 * request and for a follower (which turns the writer from quiet to live).
 */
function openWriter(kv: Deno.Kv, o: Resolved, ids: WriterIds): StreamWriter {
  const ctx: WriteContext = {
    kv,
    o,
    ids,
    state: { nextSeq: 0, committed: 0, pointerVs: null },
    stats: { commits: 0, mutations: 0, bytes: 0, batches: 0 },
  };
  let buffer: string[] = [];
  let bufferBytes = 0;
  let appended = 0;
  let batchQueued = false;
  let flushWanted = false;
  let ending: Promise<void> | null = null;
  let reported = false;
  let followed = false;
  /** When the oldest buffered chunk came (performance.now()). */
  let heldSince = 0;
  const flushBytes = () => followed ? o.flushBytes : QUIET_FLUSH_BYTES;
  // Unfollowed, a tick flushes only a batch that waited `quietFlushMs` (less the tick's own wait).
  const quietTick = () => {
    if (followed || performance.now() - heldSince + o.flushMs > o.quietFlushMs) flushNow();
    else o.flushes.due(quietTick);
  };
  const schedule = () => o.flushes.due(followed ? flushNow : quietTick);
  const unschedule = () => (o.flushes.cancel(flushNow), o.flushes.cancel(quietTick));
  const fail = (error: unknown) => {
    // Readers see the hole (or the silence) and end with the interrupted marker.
    if (!reported) console.error(`Stream log "${ids.streamId}": a KV write failed.`, error);
    reported = true;
  };
  let tail: Promise<void> = writeOpen(ctx).catch(fail);
  const enqueue = (step: () => Promise<void>) => (tail = tail.then(step).catch(fail));

  function take(): Batch {
    const batch = { first: appended - buffer.length, items: buffer };
    buffer = [];
    bufferBytes = 0;
    return batch;
  }

  // One batch in the chain at a time, so a slow commit makes the next batch bigger, not later.
  function flushNow() {
    unschedule();
    if (buffer.length === 0) return;
    if (batchQueued) return void (flushWanted = true);
    const batch = take();
    batchQueued = true;
    enqueue(() => writeBatch(ctx, batch)).then(() => {
      batchQueued = false;
      if (flushWanted || bufferBytes >= flushBytes()) {
        flushWanted = false;
        flushNow();
      } else if (buffer.length) schedule();
    });
  }

  const stop = createProducerWatch(kv, o, ids.streamId, () => {
    if (followed || ending) return;
    // What the follower has not seen goes out now, and later chunks at the live pace.
    followed = true;
    flushNow();
  });

  return {
    streamId: ids.streamId,
    append(chunk, json) {
      if (ending) return;
      let text: string;
      try {
        text = typeof json === "string" ? json : JSON.stringify(chunk);
      } catch (error) {
        return fail(error);
      }
      if (buffer.length === 0) heldSince = performance.now();
      buffer.push(text);
      // UTF-16 units: the flush threshold needs the size only roughly.
      bufferBytes += text.length + 1;
      appended++;
      if (bufferBytes >= flushBytes()) flushNow();
      else schedule();
    },
    heartbeat() {
      if (ending) return ending;
      flushNow(); // the buffered chunks are news too
      return enqueue(() => writeHeartbeat(ctx));
    },
    end(outcome) {
      if (ending) return ending;
      unschedule();
      const rest = buffer.length ? take() : null;
      ending = enqueue(() => writeEnd(ctx, outcome, appended, rest)).then(stop.close);
      return ending;
    },
    stopped: () => stop.stopped(),
    onStop: (fn) => stop.onStop(fn),
    stats: () => ({ ...ctx.stats }),
  };
}

/** Commits `op`, counting it in the stats when it lands; the versionstamp, or null when a check lost. */
async function commit(
  ctx: WriteContext,
  op: Deno.AtomicOperation,
  writes: number,
  bytes: number,
): Promise<string | null> {
  const result = await commitWithRetry(op);
  if (!result.ok) return null;
  ctx.stats.commits++;
  ctx.stats.mutations += writes;
  ctx.stats.bytes += bytes;
  return result.versionstamp;
}

function jsonBytes(value: unknown): number {
  return JSON.stringify(value).length;
}

/** Points the chat at the stream and creates its head. */
async function writeOpen(ctx: WriteContext) {
  const { kv, o, ids } = ctx;
  const now = o.clock();
  const { streamId, visitorId } = ids;
  const pointer: StreamPointer = { streamId, visitorId, startedAt: now, heartbeatAt: now };
  const head: StreamHead = { seq: 0, chunks: 0, heartbeatAt: now, done: false };
  const op = kv.atomic()
    .set(keys.pointer(ids.chatId), pointer, { expireIn: o.expireIn })
    .set(keys.head(streamId), head, { expireIn: o.expireIn });
  ctx.state.pointerVs = await commit(ctx, op, 2, jsonBytes(pointer) + jsonBytes(head));
}

/** The values of `batch`, as consecutive parts from seq `seq` on. */
function batchSets(streamId: string, batch: Batch, seq: number): GroupedSet[] {
  const parts = splitBytes(encodeArray(batch.items), PART_BYTES);
  return parts.map((data, part) => {
    const value: StreamBatchPart = {
      k: "b",
      first: batch.first,
      count: batch.items.length,
      part,
      parts: parts.length,
      data,
    };
    return { key: keys.value(streamId, seq + part), value, bytes: data.length };
  });
}

/**
 * Writes one batch as consecutive parts. Commits are shared with other writers' batches of
 * the same flush tick (`o.group`). The head is not moved: followers watch the next value's key.
 */
async function writeBatch(ctx: WriteContext, batch: Batch) {
  const { o, ids, state } = ctx;
  const parts = batchSets(ids.streamId, batch, state.nextSeq);
  for (let from = 0; from < parts.length; from += PARTS_PER_COMMIT) {
    const sets = parts.slice(from, from + PARTS_PER_COMMIT);
    await o.group.set(sets, o.expireIn);
    ctx.stats.commits++;
    ctx.stats.mutations += sets.length;
    ctx.stats.bytes += sets.reduce((n, p) => n + p.bytes, 0);
  }
  state.nextSeq += parts.length;
  state.committed = batch.first + batch.items.length;
  ctx.stats.batches++;
}

/** Sets the head's heartbeat, and the pointer's while it still names this stream. */
async function writeHeartbeat(ctx: WriteContext) {
  const { kv, o, ids, state } = ctx;
  const set = { expireIn: o.expireIn };
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = o.clock();
    const { nextSeq: seq, committed: chunks } = state;
    const head: StreamHead = { seq, chunks, heartbeatAt: now, done: false };
    const op = kv.atomic().set(keys.head(ids.streamId), head, set);
    const pointer = await kv.get<StreamPointer>(keys.pointer(ids.chatId));
    if (pointer.value?.streamId !== ids.streamId) {
      state.pointerVs = null;
      return void await commit(ctx, op, 1, jsonBytes(head));
    }
    const next = { ...pointer.value, heartbeatAt: now };
    op.check(pointer).set(keys.pointer(ids.chatId), next, set);
    const versionstamp = await commit(ctx, op, 2, jsonBytes(head) + jsonBytes(next));
    if (versionstamp) return void (state.pointerVs = versionstamp);
  }
}

/**
 * Writes the chunks still buffered (`rest`), the end record (with the count of chunks
 * appended, so a reader of a log that lost a batch sees the shortfall) and the final head,
 * and clears the pointer if it still names this stream, in one commit when `rest` fits in it.
 * The pointer is not read first while its versionstamp is this writer's own last write: a
 * check on that versionstamp fails only if another stream took the pointer since.
 */
async function writeEnd(
  ctx: WriteContext,
  outcome: StreamOutcome,
  total: number,
  rest: Batch | null,
) {
  const { kv, o, ids, state } = ctx;
  // The seqs are stable across attempts: `nextSeq` moves only when this commit lands.
  let restSets = rest ? batchSets(ids.streamId, rest, state.nextSeq) : [];
  if (restSets.length > 1) {
    await writeBatch(ctx, rest!);
    restSets = [];
    rest = null;
  }
  const set = { expireIn: o.expireIn };
  // This writer's own last pointer write, as the entry to check against (not read).
  const own = state.pointerVs;
  let pointer: Deno.AtomicCheck | null = own
    ? { key: keys.pointer(ids.chatId), versionstamp: own }
    : null;
  for (;;) {
    const now = o.clock();
    const op = kv.atomic();
    let seq = state.nextSeq, writes = 2, bytes = 0;
    for (const part of restSets) {
      op.set(part.key, part.value, set);
      seq++, writes++, bytes += part.bytes;
    }
    const chunks = rest ? rest.first + rest.items.length : state.committed;
    const record: StreamEndRecord = { k: "e", total, outcome, at: now };
    const head: StreamHead = { seq: seq + 1, chunks, heartbeatAt: now, done: true };
    op.set(keys.value(ids.streamId, seq), record, set).set(keys.head(ids.streamId), head, set);
    let ours = pointer !== null;
    if (!pointer) {
      const read = await kv.get<StreamPointer>(keys.pointer(ids.chatId));
      ours = read.value?.streamId === ids.streamId;
      pointer = read;
    }
    if (ours) op.check(pointer).delete(keys.pointer(ids.chatId)), writes++;
    // A lost check means the pointer changed: read it again (it may now name a newer stream).
    if (await commit(ctx, op, writes, bytes + jsonBytes(record) + jsonBytes(head))) {
      state.nextSeq = seq + 1;
      state.committed = chunks;
      if (rest) ctx.stats.batches++;
      return;
    }
    pointer = null;
  }
}

/**
 * Watches `["stream_stop", streamId]` until a stop arrives or the writer ends, and
 * `["stream_listen", streamId]` until a follower first touches it (`onFollowed`), in one watch.
 */
function createProducerWatch(
  kv: Deno.Kv,
  o: Resolved,
  streamId: string,
  onFollowed: () => void,
) {
  let isStopped = false;
  const listeners = new Set<() => void>();
  let closing: Promise<void> | null = null;
  const watched = [keys.stop(streamId), keys.listen(streamId)];
  const unwatch = watchKeys(kv, o, watched, (index, value) => {
    if (!value || isStopped) return;
    if (index === 1) return onFollowed();
    isStopped = true;
    for (const fn of [...listeners]) fn();
    listeners.clear();
    closing ??= unwatch();
  });
  return {
    stopped: () => isStopped,
    onStop(fn: () => void): () => void {
      if (isStopped) {
        queueMicrotask(fn);
        return () => {};
      }
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close: async () => {
      await (closing ??= unwatch());
    },
  };
}

/**
 * Replays and follows one stream: reads new values when the next one it expects appears, or
 * the head (heartbeats, the end) moves past it. Values read count as a sign of life too.
 */
function followStream(
  kv: Deno.Kv,
  o: Resolved,
  streamId: string,
  options: FollowOptions,
): ReadableStream<UIMessageChunk> {
  const staleAfterMs = options.staleAfterMs ?? 15_000;
  let lifeAt = o.clock();
  const reader = createLogReader(kv, streamId, options.fromIndex ?? 0);
  let head: StreamHead | null | undefined; // undefined: not read yet
  /** Whether the value at `reader.nextSeq()` was seen written. */
  let nextWritten = false;
  let wake: (() => void) | null = null;
  let unwatchHead: (() => Promise<void>) | null = null;
  let unwatchNext: (() => Promise<void>) | null = null;
  let closed = false;
  const onAbort = () => wake?.();
  // The value after the last one read: a new batch or the end record lands there.
  const watchNext = () => {
    const seq = reader.nextSeq();
    nextWritten = false;
    void unwatchNext?.();
    unwatchNext = watchKey<StreamValue>(kv, o, keys.value(streamId, seq), (value) => {
      if (!value || closed || reader.nextSeq() !== seq) return;
      nextWritten = true;
      wake?.();
    });
  };
  const cleanup = async () => {
    closed = true;
    options.signal?.removeEventListener("abort", onAbort);
    wake?.();
    await Promise.all([unwatchHead?.(), unwatchNext?.()]);
  };

  return new ReadableStream<UIMessageChunk>({
    start() {
      options.signal?.addEventListener("abort", onAbort);
      // The producer learns that someone follows, and writes what it holds at once.
      touchListener(kv, o, streamId).catch((error) =>
        console.error(`Stream log "${streamId}": marking a follower failed:`, error)
      );
      unwatchHead = watchKey<StreamHead>(kv, o, keys.head(streamId), (value) => {
        head = newerHead(head, value);
        wake?.();
      });
      watchNext();
    },
    async pull(controller) {
      const finish = async (interrupted: boolean) => {
        if (interrupted) controller.enqueue(INTERRUPTED_CHUNK);
        await cleanup();
        controller.close();
      };
      for (;;) {
        if (closed) return;
        if (options.signal?.aborted) return await finish(false);
        const headAhead = head ? head.seq > reader.nextSeq() : false;
        if (nextWritten || headAhead) {
          const before = reader.nextSeq();
          const { chunks, end } = await reader.readNew();
          if (closed) return;
          for (const chunk of chunks) controller.enqueue(chunk);
          // The head promises values the list did not show: they expired.
          if (end || reader.nextSeq() === before) return await finish(end !== "finished");
          lifeAt = o.clock();
          watchNext();
          if (chunks.length) return;
          continue;
        }
        const quietFor = o.clock() - Math.max(head?.heartbeatAt ?? 0, lifeAt);
        if (quietFor > staleAfterMs) return await finish(true);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, staleAfterMs - quietFor + 1);
          wake = () => (clearTimeout(timer), resolve());
        });
        wake = null;
      }
    },
    cancel: cleanup,
  });
}

function newerHead(a: StreamHead | null | undefined, b: StreamHead | null): StreamHead | null {
  if (!a || !b) return b ?? a ?? null;
  if (b.done || b.seq > a.seq) return { ...b, heartbeatAt: Math.max(a.heartbeatAt, b.heartbeatAt) };
  return { ...a, heartbeatAt: Math.max(a.heartbeatAt, b.heartbeatAt) };
}

/** Reads the values of a stream in seq order, decoding whole batches and checking continuity. */
function createLogReader(kv: Deno.Kv, streamId: string, fromIndex: number) {
  let nextSeq = 0;
  let nextIndex = 0;
  let parts: Uint8Array[] = [];
  const decoder = new TextDecoder();
  return {
    nextSeq: () => nextSeq,
    async readNew(): Promise<{ chunks: UIMessageChunk[]; end?: "finished" | "interrupted" }> {
      const chunks: UIMessageChunk[] = [];
      const start = keys.value(streamId, nextSeq);
      const entries = kv.list<StreamValue>({ prefix: ["stream", streamId], start });
      for await (const { key, value } of entries) {
        if (key[2] !== nextSeq) return { chunks, end: "interrupted" }; // a hole: expired values
        nextSeq++;
        if (value.k === "e") {
          return { chunks, end: value.total === nextIndex ? "finished" : "interrupted" };
        }
        if (value.part !== parts.length) return { chunks, end: "interrupted" };
        parts.push(value.data);
        if (value.part < value.parts - 1) continue;
        if (value.first !== nextIndex) return { chunks, end: "interrupted" };
        const batch = JSON.parse(decoder.decode(joinBytes(parts))) as UIMessageChunk[];
        parts = [];
        batch.forEach((chunk, i) => nextIndex + i >= fromIndex && chunks.push(chunk));
        nextIndex += batch.length;
      }
      return { chunks };
    },
  };
}

function joinBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, at), at += part.length;
  return out;
}
