/**
 * A chat's messages in KV: reading the slots of live seqs, finding a message by id, and the
 * upkeep around them (indexing an old record, sweeping cut seqs, laying out an append).
 * How one message is laid out in its slot is lib/store/message_slots.ts.
 *
 *   ["msg", chatId, seq, part]     → Uint8Array part, or (part 0 only) a BlobRef
 *   ["msg_id", chatId, messageId]  → seq
 */
import type { UIMessage } from "ai";
import type { ChatRecord } from "./ports.ts";
import { type ChatKv, dead, expireInOf } from "./chat_kv.ts";
import { commitWithRetry, KV_LIMITS } from "./kv.ts";
import {
  type BlobRef,
  decodeParts,
  deleteBlob,
  deleteKeys,
  encodeMessage,
  INLINE_MAX_BYTES,
  isBlobRef,
  readBlob,
  type SlotValues,
  writeBlob,
} from "./message_slots.ts";

/** The KV entries of one message: its parts in order. */
export type Slot = Deno.KvEntry<Uint8Array | BlobRef>[];

/** How long blobs outlive their chat's expiry, so a reader never finds a reference without one. */
export const BLOB_GRACE_MS = 60_000;
/** Bytes of inline message parts one `beginTurn` commit may carry (KV allows 800 KiB in all). */
const COMMIT_INLINE_BYTES = 600 * 1024;
/** Mutations one commit may carry, with room for the record and the index. */
const COMMIT_MUTATIONS = KV_LIMITS.maxMutations - 10;

/** The message slots of seqs `[from, to)`, grouped by seq, in order. */
export async function listSlots(
  { kv }: ChatKv,
  chatId: string,
  from = 0,
  to = Number.MAX_SAFE_INTEGER,
  consistency: Deno.KvConsistencyLevel = "strong",
): Promise<Map<number, Slot>> {
  const slots = new Map<number, Slot>();
  const iter = kv.list<Uint8Array | BlobRef>({
    start: ["msg", chatId, from],
    end: ["msg", chatId, to],
  }, { consistency });
  for await (const entry of iter) {
    const seq = entry.key[2] as number;
    slots.set(seq, [...(slots.get(seq) ?? []), entry]);
  }
  return slots;
}

/** The message a slot holds, from its inline parts or its blob. */
export async function readSlot(
  { kv }: ChatKv,
  chatId: string,
  slot: Slot,
  consistency: Deno.KvConsistencyLevel = "strong",
): Promise<UIMessage> {
  const first = slot[0].value;
  if (isBlobRef(first)) return decodeParts(await readBlob(kv, chatId, first, consistency));
  return decodeParts(slot.map((e) => e.value as Uint8Array));
}

/** The live messages of `chat`, in order. */
export async function readMessages(
  ctx: ChatKv,
  chat: ChatRecord,
  consistency: Deno.KvConsistencyLevel,
): Promise<UIMessage[]> {
  const slots = [...(await listSlots(ctx, chat.id, 0, undefined, consistency))]
    .filter(([seq]) => !dead(chat, seq));
  return await Promise.all(slots.map(([, slot]) => readSlot(ctx, chat.id, slot, consistency)));
}

/** The live seq of message `messageId`, or null. */
export async function findSeq(
  { kv }: ChatKv,
  chat: ChatRecord,
  messageId: string,
): Promise<number | null> {
  const entry = await kv.get<number>(["msg_id", chat.id, messageId]);
  return typeof entry.value === "number" && !dead(chat, entry.value) ? entry.value : null;
}

/** The live messages of `chat` from `seq` on, counted through the id index. */
export async function countFrom({ kv }: ChatKv, chat: ChatRecord, seq: number): Promise<number> {
  let n = 0;
  for await (const entry of kv.list<number>({ prefix: ["msg_id", chat.id] })) {
    if (entry.value >= seq && !dead(chat, entry.value)) n++;
  }
  return n;
}

/**
 * Indexes the messages of a record saved before `nextSeq` existed, then marks it upgraded;
 * such a chat's first write calls it.
 */
export async function upgrade(ctx: ChatKv, head: Deno.KvEntry<ChatRecord>): Promise<void> {
  const { kv } = ctx;
  const chat = head.value;
  const expireIn = expireInOf(ctx, chat);
  const ids: Array<[string, number]> = [];
  for (const [seq, slot] of await listSlots(ctx, chat.id, 0, chat.count)) {
    ids.push([(await readSlot(ctx, chat.id, slot)).id, seq]);
  }
  for (let i = 0; i < ids.length; i += 500) {
    const op = kv.atomic();
    for (const [id, seq] of ids.slice(i, i + 500)) {
      op.set(["msg_id", chat.id, id], seq, { expireIn });
    }
    await commitWithRetry(op);
  }
  const record: ChatRecord = { ...chat, nextSeq: chat.count, cuts: [] };
  // A lost race is fine: the caller re-reads and upgrades again if needed.
  await commitWithRetry(kv.atomic().check(head).set(["chat", chat.id], record, { expireIn }));
}

/**
 * Slot values for `messages` appended in one commit: inline while they fit the
 * commit's budget, otherwise a blob written now, in commits of its own.
 */
export async function prepareSlots(
  ctx: ChatKv,
  chatId: string,
  messages: UIMessage[],
  expiresAt: () => Promise<number>,
): Promise<{ slots: SlotValues[]; blobs: string[] }> {
  const slots: SlotValues[] = [];
  const blobs: string[] = [];
  let bytes = 0;
  let mutations = 0;
  for (const message of messages) {
    const parts = encodeMessage(message);
    const size = parts.reduce((n, p) => n + p.length, 0);
    if (
      size <= INLINE_MAX_BYTES && bytes + size <= COMMIT_INLINE_BYTES &&
      mutations + parts.length + 1 <= COMMIT_MUTATIONS
    ) {
      slots.push(parts);
      bytes += size;
      mutations += parts.length + 1;
      continue;
    }
    const expireIn = Math.max(1000, (await expiresAt()) - ctx.now()) + BLOB_GRACE_MS;
    const ref = await writeBlob(ctx.kv, chatId, parts, expireIn);
    blobs.push(ref.blob);
    slots.push([ref]);
    mutations += 2;
  }
  if (mutations > COMMIT_MUTATIONS) {
    throw new TypeError(
      `Appending ${messages.length} messages needs ${mutations} KV mutations, over the limit ` +
        `of ${COMMIT_MUTATIONS} a commit; append fewer messages at a time.`,
    );
  }
  return { slots, blobs };
}

/** Deletes the keys of seqs `[from, to)` that a commit cut from `chat` (best effort). */
export async function sweep(
  ctx: ChatKv,
  chat: ChatRecord,
  [from, to]: [number, number],
): Promise<void> {
  const { kv } = ctx;
  try {
    const slots = await listSlots(ctx, chat.id, from, to);
    const keys: Deno.KvKey[] = [];
    for (const slot of slots.values()) {
      for (const entry of slot) keys.push(entry.key);
      if (isBlobRef(slot[0].value)) await deleteBlob(kv, chat.id, slot[0].value.blob);
    }
    await deleteKeys(kv, keys);
    // An id may have been appended again by the same commit: delete only entries still cut.
    const stale: Deno.KvEntry<number>[] = [];
    for await (const entry of kv.list<number>({ prefix: ["msg_id", chat.id] })) {
      if (entry.value >= from && entry.value < to) stale.push(entry);
    }
    for (let i = 0; i < stale.length; i += KV_LIMITS.maxChecks) {
      const op = kv.atomic();
      for (const e of stale.slice(i, i + KV_LIMITS.maxChecks)) op.check(e).delete(e.key);
      await commitWithRetry(op);
    }
  } catch (error) {
    console.warn(`Chat "${chat.id}": removing cut messages failed; they expire with it:`, error);
  }
}
