/**
 * The store as the chat layer and the routes see it: a chat store and a stream log, each an
 * interface so a test can put failures in, and the records they hand out. The Deno KV
 * implementations are lib/store/chats.ts and lib/store/stream_log.ts; only the server's
 * composition (lib/server.ts) and scripts create them.
 */
import type { UIMessage, UIMessageChunk } from "ai";
import type { ChatSummary } from "@/lib/protocol/chat_summary.ts";

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

/** What `["chat_stream", chatId]` holds and {@linkcode StreamLog.active} returns. */
export interface StreamPointer {
  streamId: string;
  visitorId: string;
  startedAt: number;
  /** Last sign of life of the producer (epoch ms): its last batch or heartbeat. */
  heartbeatAt: number;
}

/** How a stream ended; written in its end record. */
export type StreamOutcome = "finished" | "stopped" | "failed" | "interrupted";

/** Counters of what a writer wrote, for figures. */
export interface StreamWriteStats {
  /** KV commits (atomic operations). */
  commits: number;
  /** Keys set or deleted across those commits. */
  mutations: number;
  /** Bytes of values written (chunk payload exactly; small records estimated as JSON). */
  bytes: number;
  /** Chunk batches written. */
  batches: number;
}

/** The producer's side of one stream. */
export interface StreamWriter {
  readonly streamId: string;
  /**
   * Buffers a chunk; never waits and never throws (write failures are logged). `json`, when
   * the caller has it, is `JSON.stringify(chunk)` (it is not made a second time).
   */
  append(chunk: UIMessageChunk, json?: string): void;
  /** Flushes, and records that the producer is alive (call it every few seconds). */
  heartbeat(): Promise<void>;
  /** Flushes, writes the end record and clears the chat's pointer if it still names this stream. */
  end(outcome: StreamOutcome): Promise<void>;
  /** Whether a stop was requested (see {@linkcode StreamLog.requestStop}). */
  stopped(): boolean;
  /** Calls `fn` once when a stop is requested (at once if it already was); returns an unsubscribe. */
  onStop(fn: () => void): () => void;
  stats(): StreamWriteStats;
}

/** Options of {@linkcode StreamLog.follow}. */
export interface FollowOptions {
  /** Index of the first chunk wanted (chunks the caller already has are skipped). Default 0. */
  fromIndex?: number;
  signal?: AbortSignal;
  /** A producer silent for longer ends the stream with the interrupted chunk. Default 15 s. */
  staleAfterMs?: number;
}

/** The chunk log of running streams. */
export interface StreamLog {
  /** Starts logging a stream of `chatId` and points the chat at it. */
  open(chatId: string, streamId: string, visitorId: string): StreamWriter;
  /** The chat's running stream, or null. */
  active(chatId: string): Promise<StreamPointer | null>;
  /**
   * Replays the stream from `fromIndex` and follows it until it ends; it touches the stream's
   * listen key at its start, which turns the producer live.
   */
  follow(streamId: string, options?: FollowOptions): ReadableStream<UIMessageChunk>;
  /** Asks the stream's producer, wherever it runs, to stop. */
  requestStop(streamId: string): Promise<void>;
  /** Records that a follower still reads the stream (call it every few seconds while it does). */
  touchListener(streamId: string): Promise<void>;
  /** When a follower last said it reads the stream (epoch ms), or null. */
  lastListenedAt(streamId: string): Promise<number | null>;
}
