/**
 * Rewriting one saved message in place (the answer's placeholder with the finished answer,
 * feedback attached to an answer): checked against the chat record and that message's slot,
 * so a save never recreates a deleted chat and never overwrites a concurrent edit. A message
 * too large for one commit goes to a blob first.
 */
import type { UIMessage } from "ai";
import type { ChatRecord } from "./ports.ts";
import { ATTEMPTS, backoff, type ChatKv, expireInOf, live } from "./chat_kv.ts";
import { StoreConflictError } from "./errors.ts";
import { commitWithRetry } from "./kv.ts";
import {
  type BlobRef,
  deleteBlob,
  encodeMessage,
  INLINE_MAX_BYTES,
  isBlobRef,
  type SlotValues,
  writeBlob,
} from "./message_slots.ts";
import { BLOB_GRACE_MS, findSeq, listSlots, readSlot, type Slot, upgrade } from "./messages.ts";
import type { MessagePositions } from "./message_positions.ts";

/**
 * Replaces the message where this store last wrote it, checking that neither the chat
 * record nor the slot changed since; false (nothing written) when they did or it does not
 * fit inline, and the caller reads the chat.
 */
export async function rewritePlaced(
  ctx: ChatKv,
  placed: MessagePositions,
  chatId: string,
  message: UIMessage,
): Promise<boolean> {
  const where = placed.take(chatId, message.id);
  if (!where) return false;
  if (where.expiresAt <= ctx.now()) return false;
  const parts = encodeMessage(message);
  if (parts.reduce((n, p) => n + p.length, 0) > INLINE_MAX_BYTES) return false;
  const expireIn = expireInOf(ctx, where);
  const op = ctx.kv.atomic()
    .check({ key: ["chat", chatId], versionstamp: where.chatVs })
    .check({ key: ["msg", chatId, where.seq, 0], versionstamp: where.slotVs });
  parts.forEach((v, p) => op.set(["msg", chatId, where.seq, p], v, { expireIn }));
  for (let p = parts.length; p < where.parts; p++) op.delete(["msg", chatId, where.seq, p]);
  const result = await commitWithRetry(op);
  if (!result.ok) return false;
  placed.set(chatId, message.id, { ...where, slotVs: result.versionstamp, parts: parts.length });
  return true;
}

/** A message found for a rewrite: the chat read, the seq and the slot it sits in. */
interface Found {
  head: Deno.KvEntryMaybe<ChatRecord>;
  chat: ChatRecord;
  seq: number;
  slot: Slot;
}

/** The live message `messageId` with what its rewrite checks; null when gone, "retry" after an upgrade. */
async function findMessage(
  ctx: ChatKv,
  chatId: string,
  messageId: string,
): Promise<Found | null | "retry"> {
  const head = await ctx.kv.get<ChatRecord>(["chat", chatId]);
  const chat = live(ctx, head.value);
  if (!chat) return null;
  if (chat.nextSeq === undefined) {
    await upgrade(ctx, head as Deno.KvEntry<ChatRecord>);
    return "retry";
  }
  const seq = await findSeq(ctx, chat, messageId);
  const slot = seq === null ? undefined : (await listSlots(ctx, chatId, seq, seq + 1)).get(seq);
  if (seq === null || !slot) return null;
  return { head, chat, seq, slot };
}

/**
 * Rewrites the message `messageId` with what `next` makes of it; null (nothing
 * written) when the chat or the message is gone. A large result goes to a blob.
 */
export async function rewrite(
  ctx: ChatKv,
  placed: MessagePositions,
  chatId: string,
  messageId: string,
  next: (read: () => Promise<UIMessage>) => Promise<UIMessage> | UIMessage,
): Promise<UIMessage | null> {
  const { kv } = ctx;
  let written = null as { message: UIMessage; ref: BlobRef } | null;
  let kept = false;
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const found = await findMessage(ctx, chatId, messageId);
      if (found === "retry") continue;
      if (!found) return null;
      const { head, chat, seq, slot } = found;
      const message = await next(() => readSlot(ctx, chatId, slot));
      const parts = encodeMessage(message);
      let values: SlotValues = parts;
      if (parts.reduce((n, p) => n + p.length, 0) > INLINE_MAX_BYTES) {
        if (written?.message !== message) {
          if (written) await deleteBlob(kv, chatId, written.ref.blob);
          const expireIn = expireInOf(ctx, chat) + BLOB_GRACE_MS;
          written = { message, ref: await writeBlob(kv, chatId, parts, expireIn) };
        }
        values = [written.ref];
      }
      const expireIn = expireInOf(ctx, chat);
      const op = kv.atomic().check(head).check(slot[0]);
      values.forEach((v, p) => op.set(["msg", chatId, seq, p], v, { expireIn }));
      for (const entry of slot.slice(values.length)) op.delete(entry.key);
      const result = await commitWithRetry(op);
      if (result.ok) {
        kept = values[0] === written?.ref;
        placed.delete(chatId, messageId);
        if (!kept && head.versionstamp) {
          placed.set(chatId, messageId, {
            seq,
            parts: values.length,
            chatVs: head.versionstamp,
            slotVs: result.versionstamp,
            expiresAt: chat.expiresAt,
          });
        }
        const old = slot[0].value;
        if (isBlobRef(old)) await deleteBlob(kv, chatId, old.blob).catch(() => {});
        return message;
      }
      await backoff(attempt);
    }
    throw new StoreConflictError(
      `Could not rewrite message "${messageId}" of chat "${chatId}": too many concurrent writes.`,
    );
  } finally {
    if (written && !kept) await deleteBlob(kv, chatId, written.ref.blob).catch(() => {});
  }
}
