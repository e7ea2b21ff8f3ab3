/**
 * Where this isolate's chat store last wrote a chat's newest message (the placeholder answer a
 * turn appends, then its saves): `replaceMessage` checks these versionstamps instead of
 * reading the chat, the id index and the slot again. The checks fail, and the full rewrite
 * runs, if anything changed the chat or the slot since. The oldest are dropped past `max`
 * (a turn that never saved).
 */
import { Lru } from "@/lib/lru.ts";

/** Where a message was last written: its seq, part count and the versionstamps to check. */
export interface MessagePosition {
  seq: number;
  parts: number;
  /** Versionstamp of the chat record, and of the slot's first part, as written or read. */
  chatVs: string;
  slotVs: string;
  expiresAt: number;
}

/** The positions of recently written messages, by chat and message id. */
export interface MessagePositions {
  set(chatId: string, messageId: string, where: MessagePosition): void;
  /** The position, removed from the cache: whoever takes it writes and sets it again. */
  take(chatId: string, messageId: string): MessagePosition | undefined;
  delete(chatId: string, messageId: string): void;
}

/** Creates the cache, holding at most `max` positions. */
export function createMessagePositions(max: number): MessagePositions {
  const placed = new Lru<string, MessagePosition>(max);
  const key = (chatId: string, messageId: string) => `${chatId}\u0000${messageId}`;
  return {
    set: (chatId, messageId, where) => void placed.set(key(chatId, messageId), where),
    take(chatId, messageId) {
      const where = placed.get(key(chatId, messageId));
      placed.delete(key(chatId, messageId));
      return where;
    },
    delete: (chatId, messageId) => void placed.delete(key(chatId, messageId)),
  };
}
