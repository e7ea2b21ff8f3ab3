/**
 * What every part of the KV chat store shares: the KV handle, the clock, the retention, and
 * the rules of a chat record (when it is live, which seqs it still holds).
 *
 * Key schema (every key of a chat expires with it, `retentionDays` after the
 * chat was created, through `expireIn`):
 *
 *   ["chat", chatId]                 → ChatRecord
 *   ["msg", chatId, seq, part]       → Uint8Array: part of a message's UTF-8 JSON (60 KiB
 *                                      parts), or in part 0 a BlobRef for a large message
 *   ["msg_id", chatId, messageId]    → seq: finds a message by id
 *   ["blob", chatId, blobId, i]      → Uint8Array: part of a large message, written in
 *                                      commits of its own before the commit naming it
 *   ["visitor_chat", visitorId, updatedAt, chatId] → null: a visitor's chats, newest last
 *   ["chat_deleted", chatId]         → { at }: tombstone, expires after the retention period
 *   ["visitor_erased", visitorId]    → { at }: tombstone, expires after the retention period
 *
 * Seqs are never reused: a message appends at `nextSeq`; an edit or
 * regenerate removes a suffix by adding `[from, nextSeq)` to the record's
 * `cuts`, so its commit stays small whatever it removes, and readers skip cut
 * seqs. The cut keys are deleted right after that commit (or expire).
 */
import type { ChatRecord } from "./ports.ts";

/** The KV chat store's shared handles. */
export interface ChatKv {
  kv: Deno.Kv;
  now: () => number;
  /** How long a chat lives after it was created; also the tombstones' lifetime. */
  retentionMs: number;
}

/** Commits a write tries before it gives up with `StoreConflictError`. */
export const ATTEMPTS = 8;

/** The record, or null when it is absent or past its expiry. */
export function live(ctx: ChatKv, record: ChatRecord | null): ChatRecord | null {
  // KV deletes expired keys lazily (locally, minutes later); a chat past its expiry is gone at once.
  return record && record.expiresAt > ctx.now() ? record : null;
}

/** The `expireIn` that makes a key expire with `chat`. */
export function expireInOf(ctx: ChatKv, chat: { expiresAt: number }): number {
  return Math.max(1000, chat.expiresAt - ctx.now());
}

/** Waits a little before the next attempt of a commit that lost a race. */
export function backoff(attempt: number): Promise<void> {
  return new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
}

/** Whether `seq` is not (or no longer) a message of `chat`. */
export function dead(chat: ChatRecord, seq: number): boolean {
  return seq >= (chat.nextSeq ?? chat.count) ||
    (chat.cuts ?? []).some(([from, to]) => seq >= from && seq < to);
}

/** `cuts` with `[from, to)` added; ranges it covers are merged into it. */
export function addCut(
  cuts: Array<[number, number]>,
  [from, to]: [number, number],
): Array<[number, number]> {
  const apart = ([a, b]: [number, number]) => b < from || a > to;
  const touching = cuts.filter((c) => !apart(c));
  const merged: [number, number] = [
    Math.min(from, ...touching.map(([a]) => a)),
    Math.max(to, ...touching.map(([, b]) => b)),
  ];
  return [...cuts.filter(apart), merged].sort((x, y) => x[0] - y[0]);
}
