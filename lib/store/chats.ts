/**
 * Chats and their messages in Deno KV.
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
 *
 * Every write that changes which messages a chat has (`beginTurn`) commits
 * atomically, checked against the chat record's versionstamp and both
 * tombstones; a lost race re-reads and retries, so two tabs appending at once
 * both keep their messages, and a chat deleted (or a visitor erased) while an
 * answer streams is never re-created. Rewriting one message (`replaceMessage`,
 * `updateMessage`) checks the record and that message's slot.
 *
 * Records saved before `nextSeq` existed are upgraded (ids indexed) on their
 * first write.
 */
import { Lru } from "@/lib/lru.ts";
import type { UIMessage } from "ai";
import { ServiceUnavailableError } from "@/lib/http/errors.ts";
import { commitWithRetry, isTransientKvError, KV_LIMITS } from "./kv.ts";
import {
  type BlobRef,
  decodeParts,
  deleteBlob,
  deleteKeys,
  deletePrefix,
  encodeMessage,
  getManyBatched,
  INLINE_MAX_BYTES,
  isBlobRef,
  readBlob,
  type SlotValues,
  writeBlob,
} from "./message_slots.ts";
import type { ChatSummary } from "@/lib/protocol/chat_summary.ts";

export { encodeMessage };

/** A chat's header. */
export interface ChatRecord {
  id: string;
  visitorId: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  /** Number of messages. */
  count: number;
  /** Absolute expiry time (epoch ms), shared by every key of the chat. */
  expiresAt: number;
  /** The seq of the next appended message; absent on records saved before it existed. */
  nextSeq?: number;
  /** Seq ranges `[from, to)` removed by edits and regenerates. */
  cuts?: Array<[number, number]>;
}

/** Raised when the store cannot be reached; routes answer 503. */
export class StoreUnavailableError extends ServiceUnavailableError {
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

/** Raised when a chat may not be written by this visitor: it belongs to another visitor, it was deleted, or the visitor erased their data. Routes answer 404, exactly like a missing chat. */
export class ChatNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChatNotFoundError";
  }
}

/** Raised when an edit or regenerate names a message that is no longer in the chat. Routes answer 400. */
export class ReplaceTargetMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplaceTargetMissingError";
  }
}

/** Raised when a list cursor is not one this visitor's listing gave. Routes answer 400. */
export class InvalidCursorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidCursorError";
  }
}

/** What `beginTurn` writes. */
export interface BeginTurn {
  chatId: string;
  visitorId: string;
  /** Edit or regenerate: the id of the first message the turn replaces — it and every message after it are removed, resolved BY ID at commit time (never by an index taken earlier). null for a new question: nothing is removed. */
  replaceFrom: string | null;
  /** Appended at the end, in order: the visitor's question (absent when regenerating) and the answer's placeholder message. */
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
  /**
   * The chat's record and its messages, read together (the record once, not once more to
   * check ownership). With `visitorId`, another visitor's chat comes back with no messages
   * read: the caller answers as for a missing chat.
   */
  loadChat(
    chatId: string,
    options?: { consistency?: Deno.KvConsistencyLevel; visitorId?: string },
  ): Promise<{ chat: ChatRecord | null; messages: UIMessage[] }>;
  /** Starts a turn in one atomic commit: creates the chat for `visitorId` when it does not exist yet (the first writer owns the id; a later writer from another visitor gets ChatNotFoundError), removes what `replaceFrom` replaces, appends `append`. Returns the updated record. */
  beginTurn(write: BeginTurn): Promise<ChatRecord>;
  /** Replaces a saved message, found by its id, with `message` (same id), e.g. the answer's placeholder with the finished answer. Returns false and writes nothing when the chat or the message is gone (deleted, or removed by an edit meanwhile): a save never recreates a deleted chat or visitor. Works for messages larger than one KV commit. */
  replaceMessage(chatId: string, messageId: string, message: UIMessage): Promise<boolean>;
  /** A page of the visitor's chats, newest first; throws `InvalidCursorError` for a cursor it did not give. */
  listChats(
    visitorId: string,
    options?: { cursor?: string; limit?: number },
  ): Promise<{ chats: ChatSummary[]; cursor: string | null }>;
  renameChat(chatId: string, title: string): Promise<ChatRecord | null>;
  /**
   * Deletes a chat; a tombstone keeps it from being written again for the retention
   * period, unless `allowReuse` (the import's replace and clean-up).
   */
  deleteChat(chatId: string, options?: { allowReuse?: boolean }): Promise<boolean>;
  /** Deletes every chat of a visitor, who may then write no more; returns how many. */
  deleteVisitorChats(visitorId: string): Promise<number>;
  /** Rewrites one saved message (e.g. to attach feedback); returns it, or null when absent. */
  updateMessage(
    chatId: string,
    messageId: string,
    update: (message: UIMessage) => UIMessage,
  ): Promise<UIMessage | null>;
}

/** Options of the KV chat store. */
export interface KvChatStoreOptions {
  retentionDays: number;
  clock?: () => number;
}

/** Bytes of inline message parts one `beginTurn` commit may carry (KV allows 800 KiB in all). */
const COMMIT_INLINE_BYTES = 600 * 1024;
/** Mutations one commit may carry, with room for the record and the index. */
const COMMIT_MUTATIONS = KV_LIMITS.maxMutations - 10;
/** How long blobs outlive their chat's expiry, so a reader never finds a reference without one. */
const BLOB_GRACE_MS = 60_000;
const ATTEMPTS = 8;
/** The entries a turn's start checks: the chat, its tombstone, the visitor's erasure. */
type TurnChecks = [
  Deno.KvEntryMaybe<ChatRecord>,
  Deno.KvEntryMaybe<unknown>,
  Deno.KvEntryMaybe<unknown>,
];
/** How long a turn's start may use what its plan read (see `seen` in {@linkcode createKvChatStore}). */
const SEEN_MS = 10_000;
/** Most entries a store remembers in `placed` and `seen` (see {@linkcode createKvChatStore}). */
const PLACED_MAX = 10_000;

/** Where a message was last written by this store: its seq, part count and the versionstamps to check. */
interface Placed {
  seq: number;
  parts: number;
  /** Versionstamp of the chat record, and of the slot's first part, as written or read. */
  chatVs: string;
  slotVs: string;
  expiresAt: number;
}

type Slot = Deno.KvEntry<Uint8Array | BlobRef>[];

/** Whether `seq` is not (or no longer) a message of `chat`. */
function dead(chat: ChatRecord, seq: number): boolean {
  return seq >= (chat.nextSeq ?? chat.count) ||
    (chat.cuts ?? []).some(([from, to]) => seq >= from && seq < to);
}

/** `cuts` with `[from, to)` added; ranges it covers are merged into it. */
function addCut(cuts: Array<[number, number]>, [from, to]: [number, number]) {
  const apart = ([a, b]: [number, number]) => b < from || a > to;
  const touching = cuts.filter((c) => !apart(c));
  const merged: [number, number] = [
    Math.min(from, ...touching.map(([a]) => a)),
    Math.max(to, ...touching.map(([, b]) => b)),
  ];
  return [...cuts.filter(apart), merged].sort((x, y) => x[0] - y[0]);
}

/** A cursor names the last chat of a page and the visitor it was given to. */
function visitorTag(visitorId: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < visitorId.length; i++) h = Math.imul(h ^ visitorId.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

function encodeCursor(visitorId: string, updatedAt: number, chatId: string): string {
  const json = JSON.stringify([visitorTag(visitorId), updatedAt, chatId]);
  return btoa(json).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decodeCursor(visitorId: string, cursor: string): [number, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(atob(cursor.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== visitorTag(visitorId) ||
    typeof parsed[1] !== "number" || typeof parsed[2] !== "string"
  ) {
    throw new InvalidCursorError(
      `The cursor "${cursor.slice(0, 40)}" is not one this visitor's chat list gave; ` +
        "list again without a cursor.",
    );
  }
  return [parsed[1], parsed[2]];
}

/** The Deno KV implementation of `ChatStore`. */
export function createKvChatStore(kv: Deno.Kv, options: KvChatStoreOptions): ChatStore {
  const now = options.clock ?? Date.now;
  const retentionMs = options.retentionDays * 24 * 60 * 60 * 1000;
  const typed = [
    StoreConflictError,
    StoreUnavailableError,
    ChatNotFoundError,
    ReplaceTargetMissingError,
    InvalidCursorError,
  ];

  async function wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (typed.some((type) => error instanceof type)) throw error;
      if (
        error instanceof TypeError && /too large|too many|limit/i.test(error.message) &&
        !isTransientKvError(error)
      ) throw error;
      throw new StoreUnavailableError(`Deno KV failed while trying to ${what}.`, { cause: error });
    }
  }

  // KV deletes expired keys lazily (locally, minutes later); a chat past its expiry is gone at once.
  function live(record: ChatRecord | null): ChatRecord | null {
    return record && record.expiresAt > now() ? record : null;
  }

  const expireInOf = (chat: { expiresAt: number }) => Math.max(1000, chat.expiresAt - now());
  const backoff = (attempt: number) =>
    new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));

  /**
   * Where this store last wrote a chat's newest message (the placeholder answer a turn
   * appends, then its saves): `replaceMessage` checks these versionstamps instead of reading
   * the chat, the id index and the slot again. The checks fail, and the full rewrite runs, if
   * anything changed the chat or the slot since. Per isolate; the oldest are dropped past
   * `PLACED_MAX` (a turn that never saved).
   */
  const placed = new Lru<string, Placed>(PLACED_MAX);
  const placedKey = (chatId: string, messageId: string) => `${chatId}\u0000${messageId}`;
  const place = (chatId: string, messageId: string, where: Placed) =>
    placed.set(placedKey(chatId, messageId), where);

  /**
   * What `loadChat` for a visitor last read of a chat (its record and the two tombstones a
   * turn's start checks), kept a few seconds for that turn's `beginTurn`: its first attempt
   * commits against these entries instead of reading them again. Stale entries only make
   * that commit lose its checks, and the next attempt reads.
   */
  const seen = new Lru<string, { entries: TurnChecks; at: number }>(PLACED_MAX);
  const seenKey = (chatId: string, visitorId: string) => `${chatId}\u0000${visitorId}`;

  /**
   * Replaces the message where this store last wrote it, checking that neither the chat
   * record nor the slot changed since; false (nothing written) when they did or it does not
   * fit inline, and the caller reads the chat.
   */
  async function rewritePlaced(chatId: string, message: UIMessage): Promise<boolean> {
    const key = placedKey(chatId, message.id);
    const where = placed.get(key);
    if (!where) return false;
    placed.delete(key);
    if (where.expiresAt <= now()) return false;
    const parts = encodeMessage(message);
    if (parts.reduce((n, p) => n + p.length, 0) > INLINE_MAX_BYTES) return false;
    const expireIn = expireInOf(where);
    const op = kv.atomic()
      .check({ key: ["chat", chatId], versionstamp: where.chatVs })
      .check({ key: ["msg", chatId, where.seq, 0], versionstamp: where.slotVs });
    parts.forEach((v, p) => op.set(["msg", chatId, where.seq, p], v, { expireIn }));
    for (let p = parts.length; p < where.parts; p++) op.delete(["msg", chatId, where.seq, p]);
    const result = await commitWithRetry(op);
    if (!result.ok) return false;
    place(chatId, message.id, { ...where, slotVs: result.versionstamp, parts: parts.length });
    return true;
  }

  /** The message slots of seqs `[from, to)`, grouped by seq, in order. */
  async function listSlots(
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

  async function readSlot(
    chatId: string,
    slot: Slot,
    consistency: Deno.KvConsistencyLevel = "strong",
  ): Promise<UIMessage> {
    const first = slot[0].value;
    if (isBlobRef(first)) return decodeParts(await readBlob(kv, chatId, first, consistency));
    return decodeParts(slot.map((e) => e.value as Uint8Array));
  }

  /** The live seq of message `messageId`, or null. */
  async function findSeq(chat: ChatRecord, messageId: string): Promise<number | null> {
    const entry = await kv.get<number>(["msg_id", chat.id, messageId]);
    return typeof entry.value === "number" && !dead(chat, entry.value) ? entry.value : null;
  }

  /** Indexes the messages of a record saved before `nextSeq` existed, then marks it upgraded. */
  async function upgrade(head: Deno.KvEntry<ChatRecord>): Promise<void> {
    const chat = head.value;
    const expireIn = expireInOf(chat);
    const ids: Array<[string, number]> = [];
    for (const [seq, slot] of await listSlots(chat.id, 0, chat.count)) {
      ids.push([(await readSlot(chat.id, slot)).id, seq]);
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
  async function prepareSlots(
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
      const expireIn = Math.max(1000, (await expiresAt()) - now()) + BLOB_GRACE_MS;
      const ref = await writeBlob(kv, chatId, parts, expireIn);
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
  async function sweep(chat: ChatRecord, [from, to]: [number, number]): Promise<void> {
    try {
      const slots = await listSlots(chat.id, from, to);
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

  /** The live messages of `chat` from `seq` on, counted through the id index. */
  async function countFrom(chat: ChatRecord, seq: number): Promise<number> {
    let n = 0;
    for await (const entry of kv.list<number>({ prefix: ["msg_id", chat.id] })) {
      if (entry.value >= seq && !dead(chat, entry.value)) n++;
    }
    return n;
  }

  /** The entries a turn's start checks, as read now. */
  function readTurnChecks(chatId: string, visitorId: string): Promise<TurnChecks> {
    return kv.getMany<[ChatRecord, unknown, unknown]>([
      ["chat", chatId],
      ["chat_deleted", chatId],
      ["visitor_erased", visitorId],
    ]);
  }

  /** What the turn's plan read of the chat (once, and only if recent), else null. */
  function takeSeen(chatId: string, visitorId: string): TurnChecks | null {
    const key = seenKey(chatId, visitorId);
    const entry = seen.get(key);
    seen.delete(key);
    return entry && now() - entry.at < SEEN_MS ? entry.entries : null;
  }

  /** Whether the start of a turn must be refused: the chat deleted, the visitor erased, or not theirs. */
  function refused([head, gone, erased]: TurnChecks, visitorId: string): boolean {
    const prev = live(head.value);
    return Boolean(
      gone.versionstamp || erased.versionstamp || (prev && prev.visitorId !== visitorId),
    );
  }

  /**
   * One attempt of `beginTurn`'s commit; null when it lost a race. `known`: the entries the
   * turn's plan read, checked instead of read again (a refusal is confirmed by a fresh read).
   */
  async function tryBeginTurn(write: BeginTurn, slots: SlotValues[], known: TurnChecks | null) {
    const { chatId, visitorId } = write;
    let checks = known && !refused(known, visitorId) ? known : null;
    checks ??= await readTurnChecks(chatId, visitorId);
    const [head, gone, erased] = checks;
    const prev = live(head.value);
    if (refused(checks, visitorId)) throw new ChatNotFoundError(`Chat "${chatId}" not found.`);
    if (prev && prev.nextSeq === undefined) {
      await upgrade(head as Deno.KvEntry<ChatRecord>);
      return null;
    }
    const t = now();
    // An expired chat that KV has not swept yet: a new chat, its seqs after the old ones, cut.
    const start = head.value ? head.value.nextSeq ?? head.value.count : 0;
    let cuts: Array<[number, number]> = prev?.cuts ?? (head.value ? [[0, start]] : []);
    let cut: [number, number] | null = null;
    let removed = 0;
    if (write.replaceFrom !== null) {
      const from = prev ? await findSeq(prev, write.replaceFrom) : null;
      if (from === null) {
        throw new ReplaceTargetMissingError(
          `Message "${write.replaceFrom}" is no longer in chat "${chatId}"; reload the chat.`,
        );
      }
      removed = await countFrom(prev!, from);
      cut = [from, start];
      cuts = addCut(cuts, cut);
    }
    const expiresAt = prev?.expiresAt ?? t + retentionMs;
    const record: ChatRecord = {
      id: chatId,
      visitorId,
      title: prev?.title ?? write.title ?? null,
      createdAt: prev?.createdAt ?? t,
      updatedAt: Math.max(t, (prev?.updatedAt ?? 0) + 1),
      count: (prev?.count ?? 0) - removed + write.append.length,
      expiresAt,
      nextSeq: start + write.append.length,
      cuts,
    };
    const expireIn = Math.max(1000, expiresAt - t);
    const op = kv.atomic().check(head).check(gone).check(erased);
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
      place(chatId, write.append[last].id, {
        seq: start + last,
        parts: slots[last].length,
        chatVs: result.versionstamp,
        slotVs: result.versionstamp,
        expiresAt,
      });
    }
    if (cut) await sweep(record, cut);
    return record;
  }

  /**
   * Rewrites the message `messageId` with what `next` makes of it; null (nothing
   * written) when the chat or the message is gone. A large result goes to a blob.
   */
  async function rewrite(
    chatId: string,
    messageId: string,
    next: (read: () => Promise<UIMessage>) => Promise<UIMessage> | UIMessage,
  ): Promise<UIMessage | null> {
    let written = null as { message: UIMessage; ref: BlobRef } | null;
    let kept = false;
    try {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const head = await kv.get<ChatRecord>(["chat", chatId]);
        const chat = live(head.value);
        if (!chat) return null;
        if (chat.nextSeq === undefined) {
          await upgrade(head as Deno.KvEntry<ChatRecord>);
          continue;
        }
        const seq = await findSeq(chat, messageId);
        const slot = seq === null ? undefined : (await listSlots(chatId, seq, seq + 1)).get(seq);
        if (seq === null || !slot) return null;
        const message = await next(() => readSlot(chatId, slot));
        const parts = encodeMessage(message);
        let values: SlotValues = parts;
        if (parts.reduce((n, p) => n + p.length, 0) > INLINE_MAX_BYTES) {
          if (written?.message !== message) {
            if (written) await deleteBlob(kv, chatId, written.ref.blob);
            const expireIn = expireInOf(chat) + BLOB_GRACE_MS;
            written = { message, ref: await writeBlob(kv, chatId, parts, expireIn) };
          }
          values = [written.ref];
        }
        const expireIn = expireInOf(chat);
        const op = kv.atomic().check(head).check(slot[0]);
        values.forEach((v, p) => op.set(["msg", chatId, seq, p], v, { expireIn }));
        for (const entry of slot.slice(values.length)) op.delete(entry.key);
        const result = await commitWithRetry(op);
        if (result.ok) {
          kept = values[0] === written?.ref;
          placed.delete(placedKey(chatId, messageId));
          if (!kept && head.versionstamp) {
            place(chatId, messageId, {
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

  /** Deletes a chat; with `visitorId`, only if it is that visitor's. */
  async function removeChat(
    chatId: string,
    { allowReuse = false, visitorId }: { allowReuse?: boolean; visitorId?: string } = {},
  ): Promise<boolean> {
    for (let attempt = 0;; attempt++) {
      const head = await kv.get<ChatRecord>(["chat", chatId]);
      if (!head.value || (visitorId && head.value.visitorId !== visitorId)) return false;
      const op = kv.atomic().check(head).delete(["chat", chatId]).delete([
        "visitor_chat",
        head.value.visitorId,
        head.value.updatedAt,
        chatId,
      ]);
      if (!allowReuse) op.set(["chat_deleted", chatId], { at: now() }, { expireIn: retentionMs });
      if ((await commitWithRetry(op)).ok) {
        // Nothing can be written under the chat any more: its keys go in batches.
        for (const prefix of ["msg", "msg_id", "blob"]) await deletePrefix(kv, [prefix, chatId]);
        return live(head.value) !== null;
      }
      if (attempt >= ATTEMPTS) {
        throw new StoreConflictError(
          `Could not delete chat "${chatId}": too many concurrent writes.`,
        );
      }
    }
  }

  const store: ChatStore = {
    getChat(chatId) {
      return wrap(
        "read a chat",
        async () => live((await kv.get<ChatRecord>(["chat", chatId])).value),
      );
    },

    async loadMessages(chatId, options) {
      return (await store.loadChat(chatId, options)).messages;
    },

    loadChat(chatId, { consistency = "strong", visitorId } = {}) {
      return wrap("read a chat's messages", async () => {
        for (let attempt = 0;; attempt++) {
          // For a visitor's turn, the tombstones its start checks come in the same read.
          const checks = visitorId === undefined || consistency !== "strong"
            ? null
            : await readTurnChecks(chatId, visitorId);
          const head = checks?.[0] ?? await kv.get<ChatRecord>(["chat", chatId], { consistency });
          if (checks) seen.set(seenKey(chatId, visitorId!), { entries: checks, at: now() });
          const chat = live(head.value);
          if (!chat || (visitorId !== undefined && chat.visitorId !== visitorId)) {
            return { chat, messages: [] };
          }
          const slots = [...(await listSlots(chatId, 0, undefined, consistency))]
            .filter(([seq]) => !dead(chat, seq));
          const messages = await Promise.all(
            slots.map(([, slot]) => readSlot(chatId, slot, consistency)),
          );
          // An edit's clean-up between the two reads could have removed listed messages.
          const again = await kv.get<ChatRecord>(["chat", chatId], { consistency });
          if (again.versionstamp === head.versionstamp || attempt >= 2) return { chat, messages };
        }
      });
    },

    beginTurn(write) {
      return wrap("start a turn", async () => {
        // The chat's expiry is read only for a message large enough to go to a blob, once.
        let expiry: Promise<number> | undefined;
        const expiresAt = () =>
          expiry ??= kv.get<ChatRecord>(["chat", write.chatId]).then((head) =>
            live(head.value)?.expiresAt ?? now() + retentionMs
          );
        const { slots, blobs } = await prepareSlots(write.chatId, write.append, expiresAt);
        try {
          for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
            const known = attempt === 0 ? takeSeen(write.chatId, write.visitorId) : null;
            const record = await tryBeginTurn(write, slots, known);
            if (record) return record;
            await backoff(attempt);
          }
          throw new StoreConflictError(
            `Could not save chat "${write.chatId}": too many concurrent writes.`,
          );
        } catch (error) {
          for (const blob of blobs) await deleteBlob(kv, write.chatId, blob).catch(() => {});
          throw error;
        }
      });
    },

    replaceMessage(chatId, messageId, message) {
      return wrap("save a message", async () => {
        if (message.id === messageId && await rewritePlaced(chatId, message)) return true;
        return (await rewrite(chatId, messageId, () => message)) !== null;
      });
    },

    listChats(visitorId, { cursor, limit = 20 } = {}) {
      return wrap("list chats", async () => {
        const prefix = ["visitor_chat", visitorId];
        const after = cursor ? decodeCursor(visitorId, cursor) : null;
        const iter = kv.list(after ? { prefix, end: [...prefix, ...after] } : { prefix }, {
          reverse: true,
          limit: limit + 1,
          consistency: "eventual",
        });
        const keys: Deno.KvKey[] = [];
        for await (const entry of iter) keys.push(entry.key);
        const page = keys.slice(0, limit);
        const records = await getManyBatched<ChatRecord>(
          kv,
          page.map((key) => ["chat", key[3]]),
          "eventual",
        );
        const chats = records.flatMap((r) => {
          const c = live(r.value);
          return c && c.visitorId === visitorId
            ? [{ id: c.id, title: c.title, updatedAt: c.updatedAt }]
            : [];
        });
        const last = page.at(-1);
        return {
          chats,
          cursor: keys.length > limit && last
            ? encodeCursor(visitorId, last[2] as number, last[3] as string)
            : null,
        };
      });
    },

    renameChat(chatId, title) {
      return wrap("rename a chat", async () => {
        for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
          const current = await kv.get<ChatRecord>(["chat", chatId]);
          if (!live(current.value)) return null;
          const record = { ...current.value!, title };
          const res = await kv.atomic().check(current).set(["chat", chatId], record, {
            expireIn: expireInOf(record),
          }).commit();
          if (res.ok) return record;
        }
        throw new StoreConflictError(
          `Could not rename chat "${chatId}": too many concurrent writes.`,
        );
      });
    },

    deleteChat(chatId, options = {}) {
      return wrap("delete a chat", () => removeChat(chatId, options));
    },

    updateMessage(chatId, messageId, update) {
      return wrap(
        "update a message",
        () => rewrite(chatId, messageId, async (read) => update(await read())),
      );
    },

    deleteVisitorChats(visitorId) {
      return wrap("delete a visitor's chats", async () => {
        // First, so that no turn of this visitor can start (or re-create a chat) from now on.
        await kv.set(["visitor_erased", visitorId], { at: now() }, { expireIn: retentionMs });
        let n = 0;
        for await (const entry of kv.list({ prefix: ["visitor_chat", visitorId] })) {
          if (await removeChat(entry.key[3] as string, { visitorId })) n++;
          else await kv.delete(entry.key);
        }
        return n;
      });
    },
  };
  return store;
}
