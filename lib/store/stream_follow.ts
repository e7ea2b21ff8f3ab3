/**
 * A stream's follower: replays the log from a chunk index and follows it until it ends. It
 * reads new values when the next one it expects appears, or the head (heartbeats, the end)
 * moves past it; values read count as a sign of life too. A producer silent too long, or a
 * hole in the log, ends the followed stream with {@linkcode INTERRUPTED_CHUNK}.
 */
import type { UIMessageChunk } from "ai";
import type { FollowOptions } from "./ports.ts";
import type { StreamKv } from "./stream_context.ts";
import { joinBytes, keys, type StreamHead, type StreamValue } from "./stream_keys.ts";
import { watchKey } from "./stream_watch.ts";

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

/** Marks `streamId` read by a follower now; the producer watches this (see the quiet pace). */
export async function touchListener(s: StreamKv, streamId: string): Promise<void> {
  // A plain set: the last toucher wins, and a lost touch is made up by the next one.
  await s.kv.set(keys.listen(streamId), { at: s.clock() }, { expireIn: s.expireIn });
}

/** One follower's state. */
interface Following {
  s: StreamKv;
  streamId: string;
  options: FollowOptions;
  staleAfterMs: number;
  reader: LogReader;
  /** The newest head seen; undefined: not read yet. */
  head: StreamHead | null | undefined;
  /** Whether the value at `reader.nextSeq()` was seen written. */
  nextWritten: boolean;
  /** When the producer last showed life through a value read. */
  lifeAt: number;
  wake: (() => void) | null;
  unwatchHead: (() => Promise<void>) | null;
  unwatchNext: (() => Promise<void>) | null;
  closed: boolean;
  onAbort: () => void;
}

/** Replays and follows one stream (see the module's doc). */
export function followStream(
  s: StreamKv,
  streamId: string,
  options: FollowOptions,
): ReadableStream<UIMessageChunk> {
  const f: Following = {
    s,
    streamId,
    options,
    staleAfterMs: options.staleAfterMs ?? 15_000,
    reader: createLogReader(s.kv, streamId, options.fromIndex ?? 0),
    head: undefined,
    nextWritten: false,
    lifeAt: s.clock(),
    wake: null,
    unwatchHead: null,
    unwatchNext: null,
    closed: false,
    onAbort: () => f.wake?.(),
  };
  return new ReadableStream<UIMessageChunk>({
    start: () => startFollowing(f),
    pull: (controller) => pull(f, controller),
    cancel: () => cleanup(f),
  });
}

function startFollowing(f: Following): void {
  f.options.signal?.addEventListener("abort", f.onAbort);
  // The producer learns that someone follows, and writes what it holds at once.
  touchListener(f.s, f.streamId).catch((error) =>
    console.error(`Stream log "${f.streamId}": marking a follower failed:`, error)
  );
  f.unwatchHead = watchKey<StreamHead>(f.s, keys.head(f.streamId), (value) => {
    f.head = newerHead(f.head, value);
    f.wake?.();
  });
  watchNext(f);
}

/** Watches the value after the last one read: a new batch or the end record lands there. */
function watchNext(f: Following): void {
  const seq = f.reader.nextSeq();
  f.nextWritten = false;
  void f.unwatchNext?.();
  f.unwatchNext = watchKey<StreamValue>(f.s, keys.value(f.streamId, seq), (value) => {
    if (!value || f.closed || f.reader.nextSeq() !== seq) return;
    f.nextWritten = true;
    f.wake?.();
  });
}

async function cleanup(f: Following): Promise<void> {
  f.closed = true;
  f.options.signal?.removeEventListener("abort", f.onAbort);
  f.wake?.();
  await Promise.all([f.unwatchHead?.(), f.unwatchNext?.()]);
}

/** Enqueues the next chunks, waiting for them; closes the stream at its end. */
async function pull(
  f: Following,
  controller: ReadableStreamDefaultController<UIMessageChunk>,
): Promise<void> {
  const finish = async (interrupted: boolean) => {
    if (interrupted) controller.enqueue(INTERRUPTED_CHUNK);
    await cleanup(f);
    controller.close();
  };
  for (;;) {
    if (f.closed) return;
    if (f.options.signal?.aborted) return await finish(false);
    const headAhead = f.head ? f.head.seq > f.reader.nextSeq() : false;
    if (f.nextWritten || headAhead) {
      const before = f.reader.nextSeq();
      const { chunks, end } = await f.reader.readNew();
      if (f.closed) return;
      for (const chunk of chunks) controller.enqueue(chunk);
      // The head promises values the list did not show: they expired.
      if (end || f.reader.nextSeq() === before) return await finish(end !== "finished");
      f.lifeAt = f.s.clock();
      watchNext(f);
      if (chunks.length) return;
      continue;
    }
    const quietFor = f.s.clock() - Math.max(f.head?.heartbeatAt ?? 0, f.lifeAt);
    if (quietFor > f.staleAfterMs) return await finish(true);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, f.staleAfterMs - quietFor + 1);
      f.wake = () => (clearTimeout(timer), resolve());
    });
    f.wake = null;
  }
}

function newerHead(a: StreamHead | null | undefined, b: StreamHead | null): StreamHead | null {
  if (!a || !b) return b ?? a ?? null;
  if (b.done || b.seq > a.seq) return { ...b, heartbeatAt: Math.max(a.heartbeatAt, b.heartbeatAt) };
  return { ...a, heartbeatAt: Math.max(a.heartbeatAt, b.heartbeatAt) };
}

/** Reads a stream's values in seq order; see {@linkcode createLogReader}. */
interface LogReader {
  nextSeq(): number;
  readNew(): Promise<{ chunks: UIMessageChunk[]; end?: "finished" | "interrupted" }>;
}

/** Reads the values of a stream in seq order, decoding whole batches and checking continuity. */
function createLogReader(kv: Deno.Kv, streamId: string, fromIndex: number): LogReader {
  let nextSeq = 0;
  let nextIndex = 0;
  let parts: Uint8Array[] = [];
  const decoder = new TextDecoder();
  return {
    nextSeq: () => nextSeq,
    async readNew() {
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
