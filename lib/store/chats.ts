/**
 * Chats and their messages in Deno KV.
 *
 * Key schema (every key of a chat expires together, `retentionDays` after the
 * chat was created, through `expireIn`):
 *
 *   ["chat", chatId]                          → ChatRecord
 *   ["msg", chatId, seq, part]                → Uint8Array: part of a message's UTF-8 JSON;
 *                                               a message over 60 KiB spans several parts
 *   ["visitor_chat", visitorId, updatedAt, chatId] → null: a visitor's chats, newest last
 *
 * A turn's writes (messages, the chat record, the index move) go in one atomic
 * commit checked against the chat record's versionstamp; a lost race reloads
 * and retries, so two tabs appending at once both keep their messages.
 */
import type { UIMessage } from "ai";
import { commitWithRetry, isTransientKvError, KV_LIMITS } from "./kv.ts";

/** A chat's header. */
export interface ChatRecord {
  id: string;
  visitorId: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  /** Number of messages (the next message's seq). */
  count: number;
  /** Absolute expiry time (epoch ms), shared by every key of the chat. */
  expiresAt: number;
}

/** A chat as listed in the sidebar. */
export interface ChatSummary {
  id: string;
  title: string | null;
  updatedAt: number;
}

/** Raised when the store cannot be reached; routes answer 503. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}

/** Raised when a commit keeps losing races (should not happen in practice). */
export class StoreConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreConflictError";
  }
}

/** What a turn writes. */
export interface TurnWrite {
  chatId: string;
  visitorId: string;
  /** Drop messages from this index on before appending (regenerate, continuation). */
  truncateTo?: number;
  /** Messages to append in order. */
  append: UIMessage[];
  /** A title to set if the chat has none. */
  title?: string;
}

/** The chat storage the routes use; an interface so tests can inject failures. */
export interface ChatStore {
  getChat(chatId: string): Promise<ChatRecord | null>;
  loadMessages(
    chatId: string,
    options?: { consistency?: Deno.KvConsistencyLevel },
  ): Promise<UIMessage[]>;
  /** Writes a turn atomically; returns the updated record. */
  saveTurn(write: TurnWrite): Promise<ChatRecord>;
  listChats(
    visitorId: string,
    options?: { cursor?: string; limit?: number },
  ): Promise<{ chats: ChatSummary[]; cursor: string | null }>;
  renameChat(chatId: string, title: string): Promise<ChatRecord | null>;
  deleteChat(chatId: string): Promise<boolean>;
  /** Deletes every chat of a visitor; returns how many. */
  deleteVisitorChats(visitorId: string): Promise<number>;
  /** Rewrites one saved message (e.g. to attach feedback); returns it, or null when absent. */
  updateMessage(
    chatId: string,
    messageId: string,
    update: (message: UIMessage) => UIMessage,
  ): Promise<UIMessage | null>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Splits a message into KV-sized parts. */
export function encodeMessage(message: UIMessage): Uint8Array[] {
  const bytes = encoder.encode(JSON.stringify(message));
  const parts: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += KV_LIMITS.chunkBytes) {
    parts.push(bytes.subarray(i, i + KV_LIMITS.chunkBytes));
  }
  if (parts.length === 0) parts.push(new Uint8Array());
  return parts;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Options of the KV chat store. */
export interface KvChatStoreOptions {
  retentionDays: number;
  clock?: () => number;
}

/** The Deno KV implementation of `ChatStore`. */
export function createKvChatStore(kv: Deno.Kv, options: KvChatStoreOptions): ChatStore {
  const now = options.clock ?? Date.now;
  const retentionMs = options.retentionDays * 24 * 60 * 60 * 1000;

  async function wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof StoreConflictError || error instanceof StoreUnavailableError) {
        throw error;
      }
      if (
        error instanceof TypeError && /too large|limit/i.test(error.message) &&
        !isTransientKvError(error)
      ) throw error;
      throw new StoreUnavailableError(`Deno KV failed while trying to ${what}.`, { cause: error });
    }
  }

  // KV deletes expired keys lazily (locally, minutes later); a chat past its expiry is gone at once.
  function live(record: ChatRecord | null): ChatRecord | null {
    return record && record.expiresAt > now() ? record : null;
  }

  async function listMessageKeys(chatId: string, fromSeq: number): Promise<Deno.KvKey[]> {
    const keys: Deno.KvKey[] = [];
    const iter = kv.list({
      start: ["msg", chatId, fromSeq],
      end: ["msg", chatId, Number.MAX_SAFE_INTEGER],
    });
    for await (const entry of iter) keys.push(entry.key);
    return keys;
  }

  const store: ChatStore = {
    getChat(chatId) {
      return wrap(
        "read a chat",
        async () => live((await kv.get<ChatRecord>(["chat", chatId])).value),
      );
    },

    loadMessages(chatId, { consistency = "strong" } = {}) {
      return wrap("read a chat's messages", async () => {
        const messages: UIMessage[] = [];
        let seq = -1;
        let parts: Uint8Array[] = [];
        const flush = () => {
          if (parts.length) messages.push(JSON.parse(decoder.decode(concat(parts))));
          parts = [];
        };
        for await (
          const entry of kv.list<Uint8Array>({ prefix: ["msg", chatId] }, { consistency })
        ) {
          const s = entry.key[2] as number;
          if (s !== seq) {
            flush();
            seq = s;
          }
          parts.push(entry.value);
        }
        flush();
        return messages;
      });
    },

    saveTurn(write) {
      return wrap("save a turn", async () => {
        for (let attempt = 0; attempt < 8; attempt++) {
          const current = await kv.get<ChatRecord>(["chat", write.chatId]);
          const t = now();
          const prev = live(current.value);
          if (current.value && !prev) {
            // An expired chat that KV has not swept yet: start over under the same id.
            for (const key of await listMessageKeys(write.chatId, 0)) await kv.delete(key);
          }
          if (prev && prev.visitorId !== write.visitorId) {
            throw new StoreConflictError(`Chat "${write.chatId}" belongs to another visitor.`);
          }
          const expiresAt = prev?.expiresAt ?? t + retentionMs;
          const expireIn = Math.max(1000, expiresAt - t);
          const start = Math.min(write.truncateTo ?? prev?.count ?? 0, prev?.count ?? 0);
          const record: ChatRecord = {
            id: write.chatId,
            visitorId: write.visitorId,
            title: prev?.title ?? write.title ?? null,
            createdAt: prev?.createdAt ?? t,
            updatedAt: Math.max(t, (prev?.updatedAt ?? 0) + 1),
            count: start + write.append.length,
            expiresAt,
          };
          const op = kv.atomic().check(current);
          if (prev && start < prev.count) {
            for (const key of await listMessageKeys(write.chatId, start)) op.delete(key);
          }
          let bytes = 0;
          write.append.forEach((message, i) => {
            encodeMessage(message).forEach((part, p) => {
              bytes += part.length;
              op.set(["msg", write.chatId, start + i, p], part, { expireIn });
            });
          });
          if (bytes > KV_LIMITS.maxCommitBytes - 16 * 1024) {
            throw new TypeError(`A turn of ${bytes} bytes is over the KV commit limit.`);
          }
          op.set(["chat", write.chatId], record, { expireIn });
          if (current.value) {
            op.delete([
              "visitor_chat",
              current.value.visitorId,
              current.value.updatedAt,
              write.chatId,
            ]);
          }
          op.set(["visitor_chat", write.visitorId, record.updatedAt, write.chatId], null, {
            expireIn,
          });
          const res = await commitWithRetry(op);
          if (res.ok) return record;
          await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
        }
        throw new StoreConflictError(
          `Could not save chat "${write.chatId}": too many concurrent writes.`,
        );
      });
    },

    listChats(visitorId, { cursor, limit = 20 } = {}) {
      return wrap("list chats", async () => {
        const iter = kv.list({ prefix: ["visitor_chat", visitorId] }, {
          reverse: true,
          limit,
          cursor,
          consistency: "eventual",
        });
        const ids: string[] = [];
        for await (const entry of iter) ids.push(entry.key[3] as string);
        const records = ids.length
          ? await kv.getMany<ChatRecord[]>(ids.map((id) => ["chat", id]), {
            consistency: "eventual",
          })
          : [];
        const chats = records.flatMap((r) => {
          const c = live(r.value);
          return c ? [{ id: c.id, title: c.title, updatedAt: c.updatedAt }] : [];
        });
        return { chats, cursor: ids.length === limit && iter.cursor ? iter.cursor : null };
      });
    },

    renameChat(chatId, title) {
      return wrap("rename a chat", async () => {
        for (let attempt = 0; attempt < 8; attempt++) {
          const current = await kv.get<ChatRecord>(["chat", chatId]);
          if (!current.value) return null;
          const record = { ...current.value, title };
          const expireIn = Math.max(1000, record.expiresAt - now());
          const res = await kv.atomic().check(current).set(["chat", chatId], record, { expireIn })
            .commit();
          if (res.ok) return record;
        }
        throw new StoreConflictError(
          `Could not rename chat "${chatId}": too many concurrent writes.`,
        );
      });
    },

    deleteChat(chatId) {
      return wrap("delete a chat", async () => {
        const current = await kv.get<ChatRecord>(["chat", chatId]);
        if (!current.value) return false;
        const keys = await listMessageKeys(chatId, 0);
        // Header and index first, atomically, so the chat disappears at once; messages follow in batches.
        const head = await kv.atomic().check(current).delete(["chat", chatId]).delete([
          "visitor_chat",
          current.value.visitorId,
          current.value.updatedAt,
          chatId,
        ]).commit();
        if (!head.ok) return store.deleteChat(chatId);
        for (let i = 0; i < keys.length; i += 500) {
          const op = kv.atomic();
          for (const key of keys.slice(i, i + 500)) op.delete(key);
          await op.commit();
        }
        return true;
      });
    },

    updateMessage(chatId, messageId, update) {
      return wrap("update a message", async () => {
        for (let attempt = 0; attempt < 8; attempt++) {
          const head = await kv.get<ChatRecord>(["chat", chatId]);
          const chat = live(head.value);
          if (!chat) return null;
          // Group the parts by seq to find the message and its keys.
          const bySeq = new Map<number, { keys: Deno.KvKey[]; parts: Uint8Array[] }>();
          for await (const entry of kv.list<Uint8Array>({ prefix: ["msg", chatId] })) {
            const seq = entry.key[2] as number;
            const group = bySeq.get(seq) ?? { keys: [], parts: [] };
            group.keys.push(entry.key);
            group.parts.push(entry.value);
            bySeq.set(seq, group);
          }
          let found: { seq: number; keys: Deno.KvKey[]; message: UIMessage } | null = null;
          for (const [seq, group] of bySeq) {
            const message = JSON.parse(decoder.decode(concat(group.parts))) as UIMessage;
            if (message.id === messageId) found = { seq, keys: group.keys, message };
          }
          if (!found) return null;
          const next = update(found.message);
          const expireIn = Math.max(1000, chat.expiresAt - now());
          // The check on the chat record keeps this from racing a turn that truncates.
          const op = kv.atomic().check(head);
          for (const key of found.keys) op.delete(key);
          encodeMessage(next).forEach((part, p) =>
            op.set(["msg", chatId, found!.seq, p], part, { expireIn })
          );
          if ((await commitWithRetry(op)).ok) return next;
        }
        throw new StoreConflictError(
          `Could not update a message of chat "${chatId}": too many concurrent writes.`,
        );
      });
    },

    deleteVisitorChats(visitorId) {
      return wrap("delete a visitor's chats", async () => {
        let n = 0;
        for await (const entry of kv.list({ prefix: ["visitor_chat", visitorId] })) {
          if (await store.deleteChat(entry.key[3] as string)) n++;
          else await kv.delete(entry.key);
        }
        return n;
      });
    },
  };
  return store;
}
