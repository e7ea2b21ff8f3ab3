/**
 * Imports chat histories stored the way AI SDK 4 apps stored them (arrays of
 * `CoreMessage`) as this app's ai 7 UI messages, into the chat store
 * (`deno task import-history`, scripts/import_history.ts).
 *
 * ## The import file
 *
 * UTF-8 JSON, either an object
 *
 * ```json
 * {
 *   "visitorId": "Vx7kQ2mN9pL4rT8w",
 *   "chats": [
 *     {
 *       "id": "k3Jd9sLq0aBc12Xy",
 *       "title": "Previsão do tempo",
 *       "createdAt": "2025-03-02T14:05:00Z",
 *       "messages": [{ "role": "user", "content": "Vai chover amanhã?" }]
 *     }
 *   ]
 * }
 * ```
 *
 * or a bare array of such chats (the visitor then comes from `--visitor`,
 * which also overrides the file's `visitorId`).
 *
 * - `visitorId`: the visitor who will own the chats: 16–64 letters, digits,
 *   `-` or `_` (the app's visitor-cookie id; any other id could never be read).
 * - `chats[].id`: the chat id, 8–64 letters, digits, `-` or `_` (what
 *   `/api/chat` accepts). `title` (optional; else the first question, as the
 *   app does), `createdAt` (optional ISO string or epoch ms: becomes the first
 *   message's `metadata.createdAt` when that message has none).
 * - `chats[].messages`: AI SDK 4 `CoreMessage`s, in order:
 *   - `system` (string content): dropped, and counted in the summary.
 *   - `user`: content a string or parts `text`, `image`
 *     (`image`: URL, data URL, base64 or serialized bytes; `mimeType`?),
 *     `file` (`data` as for images, `mimeType`, `filename`?).
 *   - `assistant`: content a string or parts `text`, `reasoning`
 *     (`redacted-reasoning` is dropped), `file`, `tool-call`
 *     (`toolCallId`, `toolName`, `args`).
 *   - `tool`: parts `tool-result` (`toolCallId`, `toolName`, `result`, `isError`?).
 *   - Optional per message: `id` (a string up to 128 characters; AI SDK 4
 *     response messages carry one) and `createdAt` (ISO string or epoch ms,
 *     kept as `metadata.createdAt`). A message without an id gets the stable id
 *     `<chatId>-<index of the message in the file>`.
 *
 * The conversion is described in convert_chat.ts; reading and checking the whole file in
 * prepare.ts; writing it in write.ts. This module holds what they share.
 */
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

/** The visitor-cookie id format (see lib/http/visitor.ts). */
export const VISITOR_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** Most bytes of messages written by one `beginTurn` commit (KV allows 800 KiB in all). */
export const MAX_COMMIT_BYTES = 700 * 1024;
/** Most KV entries (message parts, plus one id entry a message) in one commit (KV allows 1000 mutations in all). */
export const MAX_COMMIT_ENTRIES = 900;
/** Most problems listed in an error message. */
export const MAX_LISTED = 25;

/** The error text of a call settled by `settlePending`. */
export const NO_RESULT_TEXT = "No result was recorded for this call before the import.";

/** The file cannot be imported; `issues` name the chat and message of each problem. */
export class ImportFileError extends Error {
  constructor(readonly issues: string[]) {
    const listed = issues.slice(0, MAX_LISTED).map((i) => `  - ${i}`);
    if (issues.length > MAX_LISTED) listed.push(`  … and ${issues.length - MAX_LISTED} more`);
    super(
      `The import file is invalid (${issues.length} problem${
        issues.length === 1 ? "" : "s"
      }); nothing was written:\n${listed.join("\n")}`,
    );
    this.name = "ImportFileError";
  }
}

/** Counts of one chat's conversion, or of a whole import. */
export interface ImportStats {
  chats: number;
  /** CoreMessages read. */
  messagesIn: number;
  /** UI messages produced. */
  messagesOut: number;
  systemDropped: number;
  toolCalls: number;
  /** Calls finished by a matching tool result (including errors). */
  matched: number;
  /** Of the matched calls, those that finished with an error. */
  toolErrors: number;
  /** Calls without a result: kept as `input-available`. */
  pending: number;
  /** Tool results without a call: dropped. */
  orphanResults: number;
  /** Parts that have no ai 7 equivalent (redacted reasoning) or were empty. */
  droppedParts: number;
}

/** One chat, converted (not yet validated). */
export interface ConvertedChat {
  id: string;
  title: string | undefined;
  messages: ChatMessage[];
  stats: ImportStats;
}

/** One chat, converted and validated, ready to write. */
export interface PreparedChat extends ConvertedChat {
  /** The messages split into `beginTurn` calls that fit KV's commit limits. */
  commits: ChatMessage[][];
}

/** A whole file, converted and validated. */
export interface PreparedImport {
  visitorId: string;
  chats: PreparedChat[];
  totals: ImportStats;
  /** Things that were kept or dropped on purpose but deserve a look. */
  warnings: string[];
}

/** Options of `prepareImport`. */
export interface PrepareOptions {
  /** The owner of the chats; overrides the file's `visitorId`. */
  visitorId?: string;
  /**
   * Finish calls that never got a result as `output-error` ("no result was
   * recorded") instead of keeping them `input-available`. The chat turn validates
   * history against the app's own tools, and it rejects an `input-available`
   * part of a tool it does not have, so such a chat cannot be continued as is.
   */
  settlePending?: boolean;
}

/** Stats with every count at zero. */
export function emptyStats(): ImportStats {
  return {
    chats: 0,
    messagesIn: 0,
    messagesOut: 0,
    systemDropped: 0,
    toolCalls: 0,
    matched: 0,
    toolErrors: 0,
    pending: 0,
    orphanResults: 0,
    droppedParts: 0,
  };
}

/** Adds `from`'s counts to `into`. */
export function addStats(into: ImportStats, from: ImportStats): void {
  for (const key of Object.keys(into) as (keyof ImportStats)[]) into[key] += from[key];
}
