/**
 * A turn's start: one atomic commit that creates the chat for its visitor when new, removes
 * what an edit or regenerate replaces (a cut, by id at commit time) and appends the question
 * and the answer's placeholder. It is checked against the chat record's versionstamp and both
 * tombstones; a lost race re-reads and retries, so two tabs appending at once both keep their
 * messages, and a chat deleted (or a visitor erased) while an answer streams is never
 * re-created.
 */
import type { BeginTurn, ChatRecord } from "./ports.ts";
import { addCut, ATTEMPTS, backoff, type ChatKv, live } from "./chat_kv.ts";
import { ChatNotFoundError, ReplaceTargetMissingError, StoreConflictError } from "./errors.ts";
import { commitWithRetry } from "./kv.ts";
import { deleteBlob, isBlobRef, type SlotValues } from "./message_slots.ts";
import { countFrom, findSeq, prepareSlots, sweep, upgrade } from "./messages.ts";
import type { MessagePositions } from "./message_positions.ts";
import { readTurnChecks, refused, type TurnChecks, type TurnChecksCache } from "./turn_checks.ts";

/** The caches a turn's start reads and fills. */
export interface TurnCaches {
  placed: MessagePositions;
  seen: TurnChecksCache;
}

/** Runs `beginTurn`: writes large messages to blobs first, then commits, retrying lost races. */
export async function beginTurn(
  ctx: ChatKv,
  caches: TurnCaches,
  write: BeginTurn,
): Promise<ChatRecord> {
  // The chat's expiry is read only for a message large enough to go to a blob, once.
  let expiry: Promise<number> | undefined;
  const expiresAt = () =>
    expiry ??= ctx.kv.get<ChatRecord>(["chat", write.chatId]).then((head) =>
      live(ctx, head.value)?.expiresAt ?? ctx.now() + ctx.retentionMs
    );
  const { slots, blobs } = await prepareSlots(ctx, write.chatId, write.append, expiresAt);
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const known = attempt === 0 ? caches.seen.take(write.chatId, write.visitorId) : null;
      const record = await tryBeginTurn(ctx, caches.placed, write, slots, known);
      if (record) return record;
      await backoff(attempt);
    }
    throw new StoreConflictError(
      `Could not save chat "${write.chatId}": too many concurrent writes.`,
    );
  } catch (error) {
    for (const blob of blobs) await deleteBlob(ctx.kv, write.chatId, blob).catch(() => {});
    throw error;
  }
}

/** The record after the turn, and the seqs it cuts. */
interface NextRecord {
  record: ChatRecord;
  /** The seq of the first appended message. */
  start: number;
  cut: [number, number] | null;
  /** The time the record was made at. */
  t: number;
}

/**
 * One attempt of `beginTurn`'s commit; null when it lost a race. `known`: the entries the
 * turn's plan read, checked instead of read again (a refusal is confirmed by a fresh read).
 */
async function tryBeginTurn(
  ctx: ChatKv,
  placed: MessagePositions,
  write: BeginTurn,
  slots: SlotValues[],
  known: TurnChecks | null,
): Promise<ChatRecord | null> {
  const { chatId, visitorId } = write;
  let checks = known && !refused(ctx, known, visitorId) ? known : null;
  checks ??= await readTurnChecks(ctx, chatId, visitorId);
  const [head, gone, erased] = checks;
  const prev = live(ctx, head.value);
  if (refused(ctx, checks, visitorId)) throw new ChatNotFoundError(`Chat "${chatId}" not found.`);
  if (prev && prev.nextSeq === undefined) {
    await upgrade(ctx, head as Deno.KvEntry<ChatRecord>);
    return null;
  }
  const { record, start, cut, t } = await nextRecord(ctx, write, head.value, prev);
  const expireIn = Math.max(1000, record.expiresAt - t);
  const op = ctx.kv.atomic().check(head).check(gone).check(erased);
  slots.forEach((values, i) => {
    values.forEach((v, p) => op.set(["msg", chatId, start + i, p], v, { expireIn }));
    op.set(["msg_id", chatId, write.append[i].id], start + i, { expireIn });
  });
  op.set(["chat", chatId], record, { expireIn });
  if (head.value) {
    op.delete(["visitor_chat", head.value.visitorId, head.value.updatedAt, chatId]);
  }
  op.set(["visitor_chat", visitorId, record.updatedAt, chatId], null, { expireIn });
  const result = await commitWithRetry(op);
  if (!result.ok) return null;
  const last = slots.length - 1;
  if (last >= 0 && !isBlobRef(slots[last][0])) {
    placed.set(chatId, write.append[last].id, {
      seq: start + last,
      parts: slots[last].length,
      chatVs: result.versionstamp,
      slotVs: result.versionstamp,
      expiresAt: record.expiresAt,
    });
  }
  if (cut) await sweep(ctx, record, cut);
  return record;
}

/**
 * The chat record once `write` is committed over `stored` (`prev`: the same when still live).
 * An expired chat that KV has not swept yet becomes a new chat, its seqs after the old ones,
 * cut.
 */
async function nextRecord(
  ctx: ChatKv,
  write: BeginTurn,
  stored: ChatRecord | null,
  prev: ChatRecord | null,
): Promise<NextRecord> {
  const t = ctx.now();
  const start = stored ? stored.nextSeq ?? stored.count : 0;
  let cuts: Array<[number, number]> = prev?.cuts ?? (stored ? [[0, start]] : []);
  let cut: [number, number] | null = null;
  let removed = 0;
  if (write.replaceFrom !== null) {
    const from = prev ? await findSeq(ctx, prev, write.replaceFrom) : null;
    if (from === null) {
      throw new ReplaceTargetMissingError(
        `Message "${write.replaceFrom}" is no longer in chat "${write.chatId}"; reload the chat.`,
      );
    }
    removed = await countFrom(ctx, prev!, from);
    cut = [from, start];
    cuts = addCut(cuts, cut);
  }
  const record: ChatRecord = {
    id: write.chatId,
    visitorId: write.visitorId,
    title: prev?.title ?? write.title ?? null,
    createdAt: prev?.createdAt ?? t,
    updatedAt: Math.max(t, (prev?.updatedAt ?? 0) + 1),
    count: (prev?.count ?? 0) - removed + write.append.length,
    expiresAt: prev?.expiresAt ?? t + ctx.retentionMs,
    nextSeq: start + write.append.length,
    cuts,
  };
  return { record, start, cut, t };
}
