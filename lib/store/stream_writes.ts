/**
 * The KV writes of one stream's producer: the open (pointer and head), its batches, heartbeats
 * and the end record. They run one after another in the writer's chain (stream_writer.ts).
 */
import type { StreamOutcome, StreamPointer, StreamWriteStats } from "./ports.ts";
import { commitWithRetry } from "./kv.ts";
import type { GroupedSet } from "./commit_group.ts";
import type { StreamKv } from "./stream_context.ts";
import {
  encodeArray,
  keys,
  PART_BYTES,
  PARTS_PER_COMMIT,
  splitBytes,
  type StreamBatchPart,
  type StreamEndRecord,
  type StreamHead,
} from "./stream_keys.ts";

/** Chunks taken from the buffer to be written together. */
export interface Batch {
  first: number;
  /** The chunks' JSON texts. */
  items: string[];
}

/** Which stream a writer writes, for which chat and visitor. */
export interface WriterIds {
  chatId: string;
  streamId: string;
  visitorId: string;
}

/** What the KV writes of one writer share. */
export interface WriteContext {
  s: StreamKv;
  ids: WriterIds;
  /**
   * `nextSeq`: the next value's seq; `committed`: chunks written; `pointerVs`: the versionstamp
   * of this writer's last write of the chat's pointer (the end clears the pointer with it as its
   * check, without reading it first), null when unknown.
   */
  state: { nextSeq: number; committed: number; pointerVs: string | null };
  stats: StreamWriteStats;
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
export async function writeOpen(ctx: WriteContext): Promise<void> {
  const { s, ids } = ctx;
  const now = s.clock();
  const { streamId, visitorId } = ids;
  const pointer: StreamPointer = { streamId, visitorId, startedAt: now, heartbeatAt: now };
  const head: StreamHead = { seq: 0, chunks: 0, heartbeatAt: now, done: false };
  const op = s.kv.atomic()
    .set(keys.pointer(ids.chatId), pointer, { expireIn: s.expireIn })
    .set(keys.head(streamId), head, { expireIn: s.expireIn });
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
 * the same flush tick (`s.group`). The head is not moved: followers watch the next value's key.
 */
export async function writeBatch(ctx: WriteContext, batch: Batch): Promise<void> {
  const { s, ids, state } = ctx;
  const parts = batchSets(ids.streamId, batch, state.nextSeq);
  for (let from = 0; from < parts.length; from += PARTS_PER_COMMIT) {
    const sets = parts.slice(from, from + PARTS_PER_COMMIT);
    await s.group.set(sets, s.expireIn);
    ctx.stats.commits++;
    ctx.stats.mutations += sets.length;
    ctx.stats.bytes += sets.reduce((n, p) => n + p.bytes, 0);
  }
  state.nextSeq += parts.length;
  state.committed = batch.first + batch.items.length;
  ctx.stats.batches++;
}

/** Sets the head's heartbeat, and the pointer's while it still names this stream. */
export async function writeHeartbeat(ctx: WriteContext): Promise<void> {
  const { s, ids, state } = ctx;
  const set = { expireIn: s.expireIn };
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = s.clock();
    const { nextSeq: seq, committed: chunks } = state;
    const head: StreamHead = { seq, chunks, heartbeatAt: now, done: false };
    const op = s.kv.atomic().set(keys.head(ids.streamId), head, set);
    const pointer = await s.kv.get<StreamPointer>(keys.pointer(ids.chatId));
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
export async function writeEnd(
  ctx: WriteContext,
  outcome: StreamOutcome,
  total: number,
  rest: Batch | null,
): Promise<void> {
  const { s, ids, state } = ctx;
  // The seqs are stable across attempts: `nextSeq` moves only when this commit lands.
  let restSets = rest ? batchSets(ids.streamId, rest, state.nextSeq) : [];
  if (restSets.length > 1) {
    await writeBatch(ctx, rest!);
    restSets = [];
    rest = null;
  }
  const set = { expireIn: s.expireIn };
  // This writer's own last pointer write, as the entry to check against (not read).
  const own = state.pointerVs;
  let pointer: Deno.AtomicCheck | null = own
    ? { key: keys.pointer(ids.chatId), versionstamp: own }
    : null;
  for (;;) {
    const now = s.clock();
    const op = s.kv.atomic();
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
      const read = await s.kv.get<StreamPointer>(keys.pointer(ids.chatId));
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
