/**
 * Writes of a chat's header alone: renaming it, deleting it (with a tombstone that keeps it
 * from being written again), and erasing every chat of a visitor.
 */
import type { ChatRecord } from "./ports.ts";
import { ATTEMPTS, type ChatKv, expireInOf, live } from "./chat_kv.ts";
import { StoreConflictError } from "./errors.ts";
import { commitWithRetry } from "./kv.ts";
import { deletePrefix } from "./message_slots.ts";

/** Sets the chat's title; null when the chat is gone. */
export async function renameChat(
  ctx: ChatKv,
  chatId: string,
  title: string,
): Promise<ChatRecord | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await ctx.kv.get<ChatRecord>(["chat", chatId]);
    if (!live(ctx, current.value)) return null;
    const record = { ...current.value!, title };
    const res = await ctx.kv.atomic().check(current).set(["chat", chatId], record, {
      expireIn: expireInOf(ctx, record),
    }).commit();
    if (res.ok) return record;
  }
  throw new StoreConflictError(
    `Could not rename chat "${chatId}": too many concurrent writes.`,
  );
}

/** Deletes a chat; with `visitorId`, only if it is that visitor's. Whether a live chat went. */
export async function removeChat(
  ctx: ChatKv,
  chatId: string,
  { allowReuse = false, visitorId }: { allowReuse?: boolean; visitorId?: string } = {},
): Promise<boolean> {
  const { kv } = ctx;
  for (let attempt = 0;; attempt++) {
    const head = await kv.get<ChatRecord>(["chat", chatId]);
    if (!head.value || (visitorId && head.value.visitorId !== visitorId)) return false;
    const op = kv.atomic().check(head).delete(["chat", chatId]).delete([
      "visitor_chat",
      head.value.visitorId,
      head.value.updatedAt,
      chatId,
    ]);
    if (!allowReuse) {
      op.set(["chat_deleted", chatId], { at: ctx.now() }, { expireIn: ctx.retentionMs });
    }
    if ((await commitWithRetry(op)).ok) {
      // Nothing can be written under the chat any more: its keys go in batches.
      for (const prefix of ["msg", "msg_id", "blob"]) await deletePrefix(kv, [prefix, chatId]);
      return live(ctx, head.value) !== null;
    }
    if (attempt >= ATTEMPTS) {
      throw new StoreConflictError(
        `Could not delete chat "${chatId}": too many concurrent writes.`,
      );
    }
  }
}

/** Deletes every chat of a visitor, who may then write no more; returns how many. */
export async function deleteVisitorChats(ctx: ChatKv, visitorId: string): Promise<number> {
  const { kv } = ctx;
  // First, so that no turn of this visitor can start (or re-create a chat) from now on.
  await kv.set(["visitor_erased", visitorId], { at: ctx.now() }, { expireIn: ctx.retentionMs });
  let n = 0;
  for await (const entry of kv.list({ prefix: ["visitor_chat", visitorId] })) {
    if (await removeChat(ctx, entry.key[3] as string, { visitorId })) n++;
    else await kv.delete(entry.key);
  }
  return n;
}
