/**
 * The entries a turn's start checks (the chat, its tombstone, the visitor's erasure), and a
 * cache of them: what `loadChat` for a visitor last read of a chat is kept a few seconds for
 * that turn's `beginTurn`, whose first attempt commits against these entries instead of
 * reading them again. Stale entries only make that commit lose its checks, and the next
 * attempt reads.
 */
import { Lru } from "@/lib/lru.ts";
import type { ChatRecord } from "./ports.ts";
import { type ChatKv, live } from "./chat_kv.ts";

/** The entries a turn's start checks: the chat, its tombstone, the visitor's erasure. */
export type TurnChecks = [
  Deno.KvEntryMaybe<ChatRecord>,
  Deno.KvEntryMaybe<unknown>,
  Deno.KvEntryMaybe<unknown>,
];

/** How long a turn's start may use what its plan read. */
const SEEN_MS = 10_000;

/** The entries a turn's start checks, as read now. */
export function readTurnChecks(
  { kv }: ChatKv,
  chatId: string,
  visitorId: string,
): Promise<TurnChecks> {
  return kv.getMany<[ChatRecord, unknown, unknown]>([
    ["chat", chatId],
    ["chat_deleted", chatId],
    ["visitor_erased", visitorId],
  ]);
}

/** Whether the start of a turn must be refused: the chat deleted, the visitor erased, or not theirs. */
export function refused(ctx: ChatKv, [head, gone, erased]: TurnChecks, visitorId: string): boolean {
  const prev = live(ctx, head.value);
  return Boolean(
    gone.versionstamp || erased.versionstamp || (prev && prev.visitorId !== visitorId),
  );
}

/** What a visitor's plan read of a chat, kept for that turn's start. */
export interface TurnChecksCache {
  remember(chatId: string, visitorId: string, entries: TurnChecks): void;
  /** What the turn's plan read of the chat (once, and only if recent), else null. */
  take(chatId: string, visitorId: string): TurnChecks | null;
}

/** Creates the cache, holding at most `max` chats' entries. */
export function createTurnChecksCache(now: () => number, max: number): TurnChecksCache {
  const seen = new Lru<string, { entries: TurnChecks; at: number }>(max);
  const key = (chatId: string, visitorId: string) => `${chatId}\u0000${visitorId}`;
  return {
    remember(chatId, visitorId, entries) {
      seen.set(key(chatId, visitorId), { entries, at: now() });
    },
    take(chatId, visitorId) {
      const entry = seen.get(key(chatId, visitorId));
      seen.delete(key(chatId, visitorId));
      return entry && now() - entry.at < SEEN_MS ? entry.entries : null;
    },
  };
}
