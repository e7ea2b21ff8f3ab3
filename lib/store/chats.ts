/**
 * The Deno KV implementation of `ChatStore` (lib/store/ports.ts): the chat store's parts put
 * together, each operation run through `asStoreErrors`.
 *
 * - chat_kv.ts: the key schema, the shared handles and the rules of a chat record
 * - chat_turn.ts: a turn's start (the one write that changes which messages a chat has)
 * - chat_records.ts, chat_list.ts: a chat's header alone; a visitor's list
 * - messages.ts, message_slots.ts, message_rewrite.ts: the messages, their layout, a rewrite
 * - message_positions.ts, turn_checks.ts: the two per-isolate caches that spare reads
 */
import type { UIMessage } from "ai";
import type { ChatRecord, ChatStore } from "./ports.ts";
import { type ChatKv, live } from "./chat_kv.ts";
import { asStoreErrors } from "./errors.ts";
import { beginTurn, type TurnCaches } from "./chat_turn.ts";
import { listChats } from "./chat_list.ts";
import { deleteVisitorChats, removeChat, renameChat } from "./chat_records.ts";
import { readMessages } from "./messages.ts";
import { rewrite, rewritePlaced } from "./message_rewrite.ts";
import { createMessagePositions } from "./message_positions.ts";
import { createTurnChecksCache, readTurnChecks, type TurnChecksCache } from "./turn_checks.ts";

/** Options of the KV chat store. */
export interface KvChatStoreOptions {
  retentionDays: number;
  clock?: () => number;
}

/** Most entries each of the store's caches remembers. */
const CACHE_MAX = 10_000;

/** The Deno KV implementation of `ChatStore`. Example: `createKvChatStore(kv, { retentionDays: 30 })`. */
export function createKvChatStore(kv: Deno.Kv, options: KvChatStoreOptions): ChatStore {
  const now = options.clock ?? Date.now;
  const ctx: ChatKv = { kv, now, retentionMs: options.retentionDays * 24 * 60 * 60 * 1000 };
  const caches: TurnCaches = {
    placed: createMessagePositions(CACHE_MAX),
    seen: createTurnChecksCache(now, CACHE_MAX),
  };
  const store: ChatStore = {
    getChat: (chatId) =>
      asStoreErrors(
        "read a chat",
        async () => live(ctx, (await kv.get<ChatRecord>(["chat", chatId])).value),
      ),
    loadMessages: async (chatId, options) => (await store.loadChat(chatId, options)).messages,
    loadChat: (chatId, options = {}) =>
      asStoreErrors("read a chat's messages", () => loadChat(ctx, caches.seen, chatId, options)),
    beginTurn: (write) => asStoreErrors("start a turn", () => beginTurn(ctx, caches, write)),
    replaceMessage: (chatId, messageId, message) =>
      asStoreErrors("save a message", async () => {
        if (message.id === messageId && await rewritePlaced(ctx, caches.placed, chatId, message)) {
          return true;
        }
        return (await rewrite(ctx, caches.placed, chatId, messageId, () => message)) !== null;
      }),
    listChats: (visitorId, options) =>
      asStoreErrors("list chats", () => listChats(ctx, visitorId, options)),
    renameChat: (chatId, title) =>
      asStoreErrors("rename a chat", () => renameChat(ctx, chatId, title)),
    deleteChat: (chatId, options = {}) =>
      asStoreErrors("delete a chat", () => removeChat(ctx, chatId, options)),
    updateMessage: (chatId, messageId, update) =>
      asStoreErrors(
        "update a message",
        () => rewrite(ctx, caches.placed, chatId, messageId, async (read) => update(await read())),
      ),
    deleteVisitorChats: (visitorId) =>
      asStoreErrors("delete a visitor's chats", () => deleteVisitorChats(ctx, visitorId)),
  };
  return store;
}

/**
 * The chat's record and live messages. For a visitor's turn (strong reads), the tombstones its
 * start checks come in the same read and are remembered for it.
 */
async function loadChat(
  ctx: ChatKv,
  seen: TurnChecksCache,
  chatId: string,
  { consistency = "strong", visitorId }: {
    consistency?: Deno.KvConsistencyLevel;
    visitorId?: string;
  },
): Promise<{ chat: ChatRecord | null; messages: UIMessage[] }> {
  for (let attempt = 0;; attempt++) {
    const checks = visitorId === undefined || consistency !== "strong"
      ? null
      : await readTurnChecks(ctx, chatId, visitorId);
    const head = checks?.[0] ?? await ctx.kv.get<ChatRecord>(["chat", chatId], { consistency });
    if (checks) seen.remember(chatId, visitorId!, checks);
    const chat = live(ctx, head.value);
    if (!chat || (visitorId !== undefined && chat.visitorId !== visitorId)) {
      return { chat, messages: [] };
    }
    const messages = await readMessages(ctx, chat, consistency);
    // An edit's clean-up between the two reads could have removed listed messages.
    const again = await ctx.kv.get<ChatRecord>(["chat", chatId], { consistency });
    if (again.versionstamp === head.versionstamp || attempt >= 2) return { chat, messages };
  }
}
