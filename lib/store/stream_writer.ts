/**
 * A stream's producer: a buffer of chunks paced into batches (quiet while nobody follows,
 * live once someone does), a chain of writes so seqs stay in order, and a watch for a stop
 * request and for a follower.
 */
import type { StreamWriter } from "./ports.ts";
import type { StreamKv } from "./stream_context.ts";
import { keys } from "./stream_keys.ts";
import { watchKeys } from "./stream_watch.ts";
import {
  type Batch,
  writeBatch,
  type WriteContext,
  writeEnd,
  writeHeartbeat,
  writeOpen,
  type WriterIds,
} from "./stream_writes.ts";

/** Buffered size that flushes a writer nobody follows at once: a batch of one value or so. */
const QUIET_FLUSH_BYTES = 16 * 1024;

/** Opens the producer of `ids.streamId`: its first write points the chat at the stream. */
export function openWriter(s: StreamKv, ids: WriterIds): StreamWriter {
  const ctx: WriteContext = {
    s,
    ids,
    state: { nextSeq: 0, committed: 0, pointerVs: null },
    stats: { commits: 0, mutations: 0, bytes: 0, batches: 0 },
  };
  const chain = createWriteChain(ids.streamId, () => writeOpen(ctx));
  const pacer = createPacer(s, chain, (batch) => writeBatch(ctx, batch));
  let ending: Promise<void> | null = null;
  const stop = createProducerWatch(s, ids.streamId, () => {
    // What the follower has not seen goes out now, and later chunks at the live pace.
    if (!ending) pacer.follow();
  });
  return {
    streamId: ids.streamId,
    append(chunk, json) {
      if (ending) return;
      let text: string;
      try {
        text = typeof json === "string" ? json : JSON.stringify(chunk);
      } catch (error) {
        return chain.fail(error);
      }
      pacer.push(text);
    },
    heartbeat() {
      if (ending) return ending;
      pacer.flushNow(); // the buffered chunks are news too
      return chain.enqueue(() => writeHeartbeat(ctx));
    },
    end(outcome) {
      if (ending) return ending;
      const rest = pacer.takeRest();
      ending = chain.enqueue(() => writeEnd(ctx, outcome, pacer.appended(), rest))
        .then(stop.close);
      return ending;
    },
    stopped: () => stop.stopped(),
    onStop: (fn) => stop.onStop(fn),
    stats: () => ({ ...ctx.stats }),
  };
}

/** The writes of one producer, run one after another; the first failure is logged. */
interface WriteChain {
  enqueue(step: () => Promise<void>): Promise<void>;
  fail(error: unknown): void;
}

function createWriteChain(streamId: string, first: () => Promise<void>): WriteChain {
  let reported = false;
  const fail = (error: unknown) => {
    // Readers see the hole (or the silence) and end with the interrupted marker.
    if (!reported) console.error(`Stream log "${streamId}": a KV write failed.`, error);
    reported = true;
  };
  let tail: Promise<void> = first().catch(fail);
  return { enqueue: (step) => (tail = tail.then(step).catch(fail)), fail };
}

/** The buffer of chunks not yet written and the pace of their batches. */
interface Pacer {
  /** Buffers a chunk's JSON text; flushes at once when the buffer is big enough. */
  push(text: string): void;
  /** Writes what is buffered now (or right after the batch being written). */
  flushNow(): void;
  /** From now on, batches go at the live pace. */
  follow(): void;
  /** Stops the pacing and takes what is still buffered, or null. */
  takeRest(): Batch | null;
  /** Chunks pushed so far. */
  appended(): number;
}

function createPacer(s: StreamKv, chain: WriteChain, write: (b: Batch) => Promise<void>): Pacer {
  let buffer: string[] = [];
  let bufferBytes = 0;
  let appended = 0;
  let batchQueued = false;
  let flushWanted = false;
  let followed = false;
  /** When the oldest buffered chunk came (performance.now()). */
  let heldSince = 0;
  const flushBytes = () => followed ? s.flushBytes : QUIET_FLUSH_BYTES;
  // Unfollowed, a tick flushes only a batch that waited `quietFlushMs` (less the tick's own wait).
  const quietTick = () => {
    if (followed || performance.now() - heldSince + s.flushMs > s.quietFlushMs) flushNow();
    else s.flushes.due(quietTick);
  };
  const schedule = () => s.flushes.due(followed ? flushNow : quietTick);
  const unschedule = () => (s.flushes.cancel(flushNow), s.flushes.cancel(quietTick));
  const take = (): Batch => {
    const batch = { first: appended - buffer.length, items: buffer };
    buffer = [];
    bufferBytes = 0;
    return batch;
  };
  // One batch in the chain at a time, so a slow commit makes the next batch bigger, not later.
  function flushNow() {
    unschedule();
    if (buffer.length === 0) return;
    if (batchQueued) return void (flushWanted = true);
    const batch = take();
    batchQueued = true;
    chain.enqueue(() => write(batch)).then(() => {
      batchQueued = false;
      if (flushWanted || bufferBytes >= flushBytes()) {
        flushWanted = false;
        flushNow();
      } else if (buffer.length) schedule();
    });
  }
  return {
    push(text) {
      if (buffer.length === 0) heldSince = performance.now();
      buffer.push(text);
      // UTF-16 units: the flush threshold needs the size only roughly.
      bufferBytes += text.length + 1;
      appended++;
      if (bufferBytes >= flushBytes()) flushNow();
      else schedule();
    },
    flushNow,
    follow() {
      if (followed) return;
      followed = true;
      flushNow();
    },
    takeRest() {
      unschedule();
      return buffer.length ? take() : null;
    },
    appended: () => appended,
  };
}

/**
 * Watches `["stream_stop", streamId]` until a stop arrives or the writer ends, and
 * `["stream_listen", streamId]` until a follower first touches it (`onFollowed`), in one watch.
 */
function createProducerWatch(s: StreamKv, streamId: string, onFollowed: () => void) {
  let isStopped = false;
  const listeners = new Set<() => void>();
  let closing: Promise<void> | null = null;
  const watched = [keys.stop(streamId), keys.listen(streamId)];
  const unwatch = watchKeys(s, watched, (index, value) => {
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
