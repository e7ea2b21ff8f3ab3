/**
 * Imports chat histories stored the way AI SDK 4 apps stored them (arrays of
 * `CoreMessage`) as this app's ai 7 UI messages, into the KV chat store.
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
 * ## The conversion
 *
 * The run of assistant and tool messages between two user messages is one
 * multi-step turn and becomes ONE assistant UI message: a `step-start` part
 * opens each step (each assistant CoreMessage), then its reasoning, text, file
 * and tool parts. A `tool-call` becomes a `tool-<toolName>` part; the tool
 * result with the same `toolCallId` (anywhere later in the chat) finishes it:
 * `output-available` with the result as `output`, or `output-error` with an
 * `errorText` when the result has `isError: true` or is an error shape
 * (`{ error }` without `data`, or `{ type: "error-text" | "error-json", value }`).
 * A call whose result never came stays `input-available` (with `settlePending`,
 * CLI `--settle-pending`: `output-error`, so the app's turn, which validates
 * history against its own tools, accepts the chat). Results without a
 * call are dropped and counted. Every chat is then checked with the AI SDK's
 * `validateUIMessages`.
 *
 * Nothing is written unless the whole file is valid. A chat is written with
 * `beginTurn`, split into several commits when its messages would exceed
 * ~700 KB (or 900 KV entries) in one.
 */
import { type UIMessage, validateUIMessages } from "ai";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { clampTitle, fallbackTitle } from "@/lib/chat/title.ts";
import { CHAT_ID } from "@/lib/protocol/chat_id.ts";
import { type ChatStore, encodeMessage } from "./chats.ts";

/** The visitor-cookie id format (see lib/http/visitor.ts). */
export const VISITOR_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** Most bytes of messages written by one `beginTurn` commit (KV allows 800 KiB in all). */
export const MAX_COMMIT_BYTES = 700 * 1024;
/** Most KV entries (message parts, plus one id entry a message) in one commit (KV allows 1000 mutations in all). */
export const MAX_COMMIT_ENTRIES = 900;
/** Most problems listed in an error message. */
const MAX_LISTED = 25;

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

/** One chat, converted and validated, ready to write. */
export interface PreparedChat {
  id: string;
  title: string | undefined;
  messages: ChatMessage[];
  /** The messages split into `beginTurn` calls that fit KV's commit limits. */
  commits: ChatMessage[][];
  stats: ImportStats;
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

/** The error text of a call settled by `settlePending`. */
export const NO_RESULT_TEXT = "No result was recorded for this call before the import.";

type Obj = Record<string, unknown>;
type ToolPart = {
  type: `tool-${string}`;
  toolCallId: string;
  state: "input-available" | "output-available" | "output-error";
  input: unknown;
  output?: unknown;
  errorText?: string;
};
type Part = ChatMessage["parts"][number];

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function emptyStats(): ImportStats {
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

function addStats(into: ImportStats, from: ImportStats): void {
  for (const key of Object.keys(into) as (keyof ImportStats)[]) into[key] += from[key];
}

/** Epoch ms from an ISO string or a number; undefined when absent; NaN when unreadable. */
function parseTime(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number") return Number.isFinite(v) && v > 0 ? v : NaN;
  if (typeof v === "string") return Date.parse(v);
  return NaN;
}

function bytesToBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/** Bytes as JSON.stringify leaves them: a Node Buffer `{type:"Buffer",data}`, an array, or `{"0":..}`. */
function serializedBytes(v: unknown): Uint8Array | null {
  let values: unknown[] | null = null;
  if (Array.isArray(v)) values = v;
  else if (isObj(v) && v.type === "Buffer" && Array.isArray(v.data)) values = v.data;
  else if (isObj(v)) {
    const keys = Object.keys(v);
    if (keys.length > 0 && keys.every((k, i) => k === String(i))) values = Object.values(v);
  }
  if (!values) return null;
  if (!values.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255)) {
    return null;
  }
  return Uint8Array.from(values as number[]);
}

function sniffImageType(base64: string): string | undefined {
  if (base64.startsWith("iVBORw0KGgo")) return "image/png";
  if (base64.startsWith("/9j/")) return "image/jpeg";
  if (base64.startsWith("R0lGOD")) return "image/gif";
  if (base64.startsWith("UklGR")) return "image/webp";
  return undefined;
}

/**
 * The URL and media type of an AI SDK 4 image or file payload, or a problem.
 * `kind` is "image" (media type optional) or "file" (media type required, as in AI SDK 4).
 */
function toFileUrl(
  data: unknown,
  declaredType: unknown,
  kind: "image" | "file",
): { url: string; mediaType: string } | string {
  if (declaredType !== undefined && (typeof declaredType !== "string" || !declaredType)) {
    return `"mimeType" must be a non-empty string`;
  }
  let mediaType = declaredType as string | undefined;
  let url: string;
  if (typeof data === "string") {
    const dataUrl = /^data:([^;,]*)[^,]*,/i.exec(data);
    if (dataUrl) {
      url = data;
      mediaType ??= dataUrl[1] || undefined;
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(data) && URL.canParse(data)) {
      url = data;
    } else {
      const clean = data.replace(/\s+/g, "");
      if (!clean || !/^[A-Za-z0-9+/]+={0,2}$/.test(clean)) {
        return `"${kind === "image" ? "image" : "data"}" is neither a URL nor base64`;
      }
      if (kind === "image") mediaType ??= sniffImageType(clean) ?? "image/*";
      url = `data:${mediaType ?? "application/octet-stream"};base64,${clean}`;
    }
  } else {
    const bytes = serializedBytes(data);
    if (!bytes) {
      return `"${kind === "image" ? "image" : "data"}" must be a URL, base64 or serialized bytes`;
    }
    const base64 = bytesToBase64(bytes);
    if (kind === "image") mediaType ??= sniffImageType(base64) ?? "image/*";
    url = `data:${mediaType ?? "application/octet-stream"};base64,${base64}`;
  }
  if (!mediaType) {
    if (kind === "file") return `a file part needs "mimeType"`;
    mediaType = "image/*";
  }
  return { url, mediaType };
}

/** Whether an AI SDK 4 tool result is an error; returns its text, or null for a normal result. */
export function toolErrorText(result: unknown, isError: unknown): string | null {
  const text = (v: unknown): string => {
    if (typeof v === "string") return v;
    if (isObj(v) && typeof v.message === "string") return v.message;
    return JSON.stringify(v) ?? String(v);
  };
  if (isObj(result)) {
    if ((result.type === "error-text" || result.type === "error-json") && "value" in result) {
      return text(result.value);
    }
    if (
      result.error !== undefined && result.error !== null && result.error !== false &&
      (result.data === undefined || result.data === null)
    ) {
      return text(result.error);
    }
  }
  if (isError === true) return text(result) || "The tool failed.";
  return null;
}

/** Converts one chat; problems go to `issues`, notable but valid things to `warnings`. */
export function convertChat(
  chat: unknown,
  label: string,
  issues: string[],
  warnings: string[],
  options: { settlePending?: boolean } = {},
): { id: string; title: string | undefined; messages: ChatMessage[]; stats: ImportStats } | null {
  if (!isObj(chat)) {
    issues.push(`${label}: a chat must be an object with "id" and "messages"`);
    return null;
  }
  const id = chat.id;
  if (typeof id !== "string" || !CHAT_ID.test(id)) {
    issues.push(
      `${label}: "id" must be 8–64 letters, digits, '-' or '_' (got ${JSON.stringify(id)})`,
    );
    return null;
  }
  label = `${label} (id "${id}")`;
  if (chat.title !== undefined && chat.title !== null && typeof chat.title !== "string") {
    issues.push(`${label}: "title" must be a string`);
  }
  const chatCreatedAt = parseTime(chat.createdAt);
  if (Number.isNaN(chatCreatedAt)) {
    issues.push(`${label}: "createdAt" must be an ISO date string or epoch milliseconds`);
  }
  if (!Array.isArray(chat.messages)) {
    issues.push(`${label}: "messages" must be an array of AI SDK 4 CoreMessages`);
    return null;
  }

  const stats = emptyStats();
  stats.chats = 1;
  stats.messagesIn = chat.messages.length;
  const issuesBefore = issues.length;
  const out: ChatMessage[] = [];
  const generatedIds = new Set<ChatMessage>();
  const calls = new Map<string, { part: ToolPart; where: string; done: boolean }>();
  let turn: ChatMessage | null = null;

  const closeTurn = () => {
    if (turn && turn.parts.some((p) => p.type !== "step-start")) out.push(turn);
    turn = null;
  };
  const meta = (createdAt: number | undefined) =>
    createdAt === undefined ? {} : { metadata: { createdAt } };

  chat.messages.forEach((raw, mi) => {
    const at = `${label}, messages[${mi}]`;
    const problem = (what: string) => issues.push(`${at}: ${what}`);
    if (!isObj(raw)) return problem('a message must be an object with "role" and "content"');
    if ("toolInvocations" in raw || ("parts" in raw && !("content" in raw))) {
      return problem(
        "this is an AI SDK 4 UI message (parts/toolInvocations); the importer reads CoreMessages " +
          "(role + content)",
      );
    }
    if (raw.id !== undefined && (typeof raw.id !== "string" || !raw.id || raw.id.length > 128)) {
      return problem(`"id" must be a string of 1–128 characters`);
    }
    const createdAt = parseTime(raw.createdAt);
    if (Number.isNaN(createdAt)) {
      return problem(`"createdAt" must be an ISO date string or epoch milliseconds`);
    }
    const content = raw.content;
    const parts = typeof content === "string" ? [{ type: "text", text: content }] : content;

    switch (raw.role) {
      case "system": {
        if (typeof content !== "string") return problem("system content must be a string");
        stats.systemDropped++;
        return;
      }
      case "user": {
        closeTurn();
        if (!Array.isArray(parts)) return problem("user content must be a string or an array");
        const uiParts: Part[] = [];
        parts.forEach((p, pi) => {
          const pat = `content[${pi}]`;
          if (!isObj(p)) return problem(`${pat}: a part must be an object`);
          if (p.type === "text") {
            if (typeof p.text !== "string") return problem(`${pat}: "text" must be a string`);
            if (!p.text.trim()) return void stats.droppedParts++;
            uiParts.push({ type: "text", text: p.text, state: "done" });
          } else if (p.type === "image" || p.type === "file") {
            const file = p.type === "image"
              ? toFileUrl(p.image, p.mimeType ?? p.mediaType, "image")
              : toFileUrl(p.data, p.mimeType ?? p.mediaType, "file");
            if (typeof file === "string") return problem(`${pat}: ${file}`);
            uiParts.push({
              type: "file",
              mediaType: file.mediaType,
              url: file.url,
              ...(typeof p.filename === "string" ? { filename: p.filename } : {}),
            });
          } else {
            problem(`${pat}: unknown user part type ${JSON.stringify(p.type)}`);
          }
        });
        if (uiParts.length === 0) {
          warnings.push(`${at}: user message without content, dropped`);
          return;
        }
        const message: ChatMessage = {
          id: (raw.id as string | undefined) ?? `${id}-${mi}`,
          role: "user",
          parts: uiParts,
          ...meta(createdAt),
        };
        if (raw.id === undefined) generatedIds.add(message);
        out.push(message);
        return;
      }
      case "assistant": {
        if (!Array.isArray(parts)) {
          return problem("assistant content must be a string or an array");
        }
        if (!turn) {
          turn = {
            id: (raw.id as string | undefined) ?? `${id}-${mi}`,
            role: "assistant",
            parts: [],
            ...meta(createdAt),
          };
          if (raw.id === undefined) generatedIds.add(turn);
        }
        const uiParts = turn.parts;
        uiParts.push({ type: "step-start" });
        parts.forEach((p, pi) => {
          const pat = `content[${pi}]`;
          if (!isObj(p)) return problem(`${pat}: a part must be an object`);
          switch (p.type) {
            case "text":
            case "reasoning": {
              if (typeof p.text !== "string") return problem(`${pat}: "text" must be a string`);
              if (!p.text) return void stats.droppedParts++;
              uiParts.push({ type: p.type, text: p.text, state: "done" });
              return;
            }
            case "redacted-reasoning":
              stats.droppedParts++;
              return;
            case "file": {
              const file = toFileUrl(p.data, p.mimeType ?? p.mediaType, "file");
              if (typeof file === "string") return problem(`${pat}: ${file}`);
              uiParts.push({ type: "file", mediaType: file.mediaType, url: file.url });
              return;
            }
            case "tool-call": {
              if (typeof p.toolCallId !== "string" || !p.toolCallId) {
                return problem(`${pat}: "toolCallId" must be a non-empty string`);
              }
              if (typeof p.toolName !== "string" || !p.toolName) {
                return problem(`${pat}: "toolName" must be a non-empty string`);
              }
              const seen = calls.get(p.toolCallId);
              if (seen) {
                return problem(
                  `${pat}: toolCallId "${p.toolCallId}" was already used at ${seen.where}`,
                );
              }
              const part: ToolPart = {
                type: `tool-${p.toolName}`,
                toolCallId: p.toolCallId,
                state: "input-available",
                input: p.args ?? {},
              };
              calls.set(p.toolCallId, { part, where: `messages[${mi}].${pat}`, done: false });
              stats.toolCalls++;
              uiParts.push(part as Part);
              return;
            }
            default:
              problem(`${pat}: unknown assistant part type ${JSON.stringify(p.type)}`);
          }
        });
        return;
      }
      case "tool": {
        if (!Array.isArray(content)) {
          return problem("tool content must be an array of tool-result parts");
        }
        content.forEach((p, pi) => {
          const pat = `content[${pi}]`;
          if (!isObj(p) || p.type !== "tool-result") {
            return problem(`${pat}: a tool message holds only "tool-result" parts`);
          }
          if (typeof p.toolCallId !== "string" || !p.toolCallId) {
            return problem(`${pat}: "toolCallId" must be a non-empty string`);
          }
          if (typeof p.toolName !== "string" || !p.toolName) {
            return problem(`${pat}: "toolName" must be a non-empty string`);
          }
          if (!("result" in p)) return problem(`${pat}: "result" is missing`);
          if (p.isError !== undefined && typeof p.isError !== "boolean") {
            return problem(`${pat}: "isError" must be a boolean`);
          }
          const call = calls.get(p.toolCallId);
          if (!call) {
            stats.orphanResults++;
            warnings.push(
              `${at}.${pat}: result for unknown toolCallId "${p.toolCallId}" (${p.toolName}), dropped`,
            );
            return;
          }
          if (call.done) {
            warnings.push(
              `${at}.${pat}: second result for toolCallId "${p.toolCallId}", ignored`,
            );
            return;
          }
          if (`tool-${p.toolName}` !== call.part.type) {
            warnings.push(
              `${at}.${pat}: result names tool "${p.toolName}" but call ${call.where} is ` +
                `"${call.part.type.slice(5)}"; the call's name is kept`,
            );
          }
          call.done = true;
          stats.matched++;
          const errorText = toolErrorText(p.result, p.isError);
          if (errorText !== null) {
            stats.toolErrors++;
            call.part.state = "output-error";
            call.part.errorText = errorText;
          } else {
            call.part.state = "output-available";
            call.part.output = p.result ?? null;
          }
        });
        return;
      }
      default:
        problem(`"role" must be system, user, assistant or tool (got ${JSON.stringify(raw.role)})`);
    }
  });
  closeTurn();

  for (const call of calls.values()) {
    if (!call.done) {
      stats.pending++;
      if (options.settlePending) {
        call.part.state = "output-error";
        call.part.errorText = NO_RESULT_TEXT;
      }
      warnings.push(
        `${label}, ${call.where}: ${call.part.type.slice(5)} call "${call.part.toolCallId}" ` +
          `has no result; ${
            options.settlePending ? "settled as output-error" : "kept as input-available"
          }`,
      );
    }
  }

  // Message ids must be unique within a chat: a repeated given id is an error; a generated
  // one that collides with a given id gets a suffix.
  const given = new Map<string, number>();
  out.forEach((m, i) => {
    if (generatedIds.has(m)) return;
    if (given.has(m.id)) {
      issues.push(
        `${label}: message id "${m.id}" is used twice (UI messages ${given.get(m.id)} and ${i})`,
      );
    }
    given.set(m.id, i);
  });
  for (const m of generatedIds) {
    while (given.has(m.id)) m.id += "-i";
    given.set(m.id, -1);
  }

  if (out.length === 0 && issues.length === issuesBefore) {
    issues.push(`${label}: no user or assistant message to import`);
  }
  if (chatCreatedAt !== undefined && out[0] && out[0].metadata?.createdAt === undefined) {
    out[0].metadata = { ...out[0].metadata, createdAt: chatCreatedAt };
  }
  stats.messagesOut = out.length;
  const firstUser = out.find((m) => m.role === "user");
  const title = typeof chat.title === "string" && chat.title.trim()
    ? clampTitle(chat.title)
    : firstUser
    ? fallbackTitle(firstUser)
    : undefined;
  return { id, title, messages: out, stats };
}

/** Splits messages into batches that each fit one KV commit. */
export function splitCommits<M extends UIMessage>(
  messages: M[],
  { maxBytes = MAX_COMMIT_BYTES, maxEntries = MAX_COMMIT_ENTRIES } = {},
): M[][] {
  const batches: M[][] = [];
  let batch: M[] = [];
  let bytes = 0;
  let entries = 0;
  for (const message of messages) {
    const parts = encodeMessage(message);
    const size = parts.reduce((n, p) => n + p.length, 0);
    // A message takes its parts and its entry in the chat's id index.
    if (batch.length && (bytes + size > maxBytes || entries + parts.length + 1 > maxEntries)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
      entries = 0;
    }
    batch.push(message);
    bytes += size;
    entries += parts.length + 1;
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/**
 * Reads, checks and converts a whole import file (text or parsed JSON). Throws
 * `ImportFileError` listing every problem; nothing is written here.
 */
export async function prepareImport(
  input: string | unknown,
  options: PrepareOptions = {},
): Promise<PreparedImport> {
  let data: unknown = input;
  if (typeof input === "string") {
    try {
      data = JSON.parse(input);
    } catch (error) {
      throw new ImportFileError([`the file is not JSON: ${(error as Error).message}`]);
    }
  }
  const issues: string[] = [];
  const warnings: string[] = [];
  let chats: unknown[];
  let visitorId: unknown = options.visitorId;
  if (Array.isArray(data)) {
    chats = data;
  } else if (isObj(data) && Array.isArray(data.chats)) {
    chats = data.chats;
    if (options.visitorId !== undefined && data.visitorId !== undefined) {
      if (data.visitorId !== options.visitorId) {
        warnings.push(`the file's visitorId "${data.visitorId}" is overridden by --visitor`);
      }
    }
    visitorId ??= data.visitorId;
  } else {
    throw new ImportFileError([
      'the file must be { "visitorId": "...", "chats": [...] } or an array of chats',
    ]);
  }
  if (visitorId === undefined) {
    issues.push('no visitor: give "visitorId" in the file or --visitor <id>');
  } else if (typeof visitorId !== "string" || !VISITOR_ID.test(visitorId)) {
    issues.push(
      `visitorId must be 16–64 letters, digits, '-' or '_' (got ${JSON.stringify(visitorId)})`,
    );
  }
  if (chats.length === 0) issues.push("the file has no chats");

  const converted: Array<NonNullable<ReturnType<typeof convertChat>> & { ci: number }> = [];
  const chatIds = new Map<string, number>();
  chats.forEach((chat, ci) => {
    const result = convertChat(chat, `chats[${ci}]`, issues, warnings, options);
    if (!result) return;
    if (chatIds.has(result.id)) {
      issues.push(`chats[${ci}]: chat id "${result.id}" repeats chats[${chatIds.get(result.id)}]`);
    }
    chatIds.set(result.id, ci);
    converted.push({ ...result, ci });
  });

  const prepared: PreparedChat[] = [];
  for (const { ci, ...chat } of converted) {
    const label = `chats[${ci}] (id "${chat.id}")`;
    if (chat.messages.length === 0) continue;
    try {
      // No tool schemas: generic tool parts are checked for their structure only.
      await validateUIMessages({ messages: chat.messages });
    } catch (error) {
      issues.push(`${label}: ${(error as Error).message.split("\n")[0]}`);
      continue;
    }
    chat.messages.forEach((m, i) => {
      const size = encodeMessage(m).reduce((n, p) => n + p.length, 0);
      if (size > MAX_COMMIT_BYTES) {
        issues.push(
          `${label}: UI message ${i} ("${m.id}") is ${Math.ceil(size / 1024)} KiB, over the ${
            MAX_COMMIT_BYTES / 1024
          } KiB a KV commit can hold`,
        );
      }
    });
    prepared.push({ ...chat, commits: splitCommits(chat.messages) });
  }
  if (issues.length) throw new ImportFileError(issues);

  const totals = emptyStats();
  for (const chat of prepared) addStats(totals, chat.stats);
  return { visitorId: visitorId as string, chats: prepared, totals, warnings };
}

/** Options of `writeImport`. */
export interface WriteOptions {
  /** Replace a chat that already exists (same visitor); otherwise it is skipped. */
  replace?: boolean;
}

/** What `writeImport` did. */
export interface WriteReport {
  written: string[];
  skipped: Array<{ id: string; reason: string }>;
  failed: Array<{ id: string; error: string }>;
  /** `beginTurn` calls made. */
  commits: number;
}

/**
 * Writes prepared chats through the chat store, one chat after another, each in
 * as many `beginTurn` commits as it needs. An existing chat is skipped (or, with
 * `replace`, deleted and written again); a chat that fails half-way is removed.
 * Both deletions let the id be written again (no tombstone).
 */
export async function writeImport(
  store: ChatStore,
  prepared: PreparedImport,
  options: WriteOptions = {},
): Promise<WriteReport> {
  const report: WriteReport = { written: [], skipped: [], failed: [], commits: 0 };
  // Decide every skip before the first write.
  const plan: PreparedChat[] = [];
  for (const chat of prepared.chats) {
    const existing = await store.getChat(chat.id);
    if (existing && existing.visitorId !== prepared.visitorId) {
      report.skipped.push({
        id: chat.id,
        reason: "a chat with this id belongs to another visitor",
      });
    } else if (existing && !options.replace) {
      report.skipped.push({ id: chat.id, reason: "already imported (use --replace)" });
    } else plan.push(chat);
  }
  for (const chat of plan) {
    try {
      if (options.replace) await store.deleteChat(chat.id, { allowReuse: true });
      for (const append of chat.commits) {
        await store.beginTurn({
          chatId: chat.id,
          visitorId: prepared.visitorId,
          replaceFrom: null,
          append,
          title: chat.title,
        });
        report.commits++;
      }
      report.written.push(chat.id);
    } catch (error) {
      report.failed.push({ id: chat.id, error: (error as Error).message });
      try {
        await store.deleteChat(chat.id, { allowReuse: true });
      } catch {
        // The failure is reported already; a half chat expires with its retention.
      }
    }
  }
  return report;
}

/** A human summary of an import. */
export function formatSummary(prepared: PreparedImport, report?: WriteReport): string {
  const t = prepared.totals;
  const lines = [
    `Visitor: ${prepared.visitorId}`,
    `Chats: ${t.chats} in the file` +
    (report
      ? `, ${report.written.length} written (${report.commits} commits), ${report.skipped.length} skipped, ${report.failed.length} failed`
      : " (dry run: nothing written)"),
    `Messages: ${t.messagesIn} AI SDK 4 messages → ${t.messagesOut} UI messages ` +
    `(${t.systemDropped} system dropped, ${t.droppedParts} empty/redacted parts dropped)`,
    `Tool calls: ${t.toolCalls}, matched with a result ${t.matched} (${t.toolErrors} errors), ` +
    `unmatched: ${t.pending} calls without a result, ${t.orphanResults} results without a call`,
  ];
  for (const s of report?.skipped ?? []) lines.push(`Skipped ${s.id}: ${s.reason}`);
  for (const f of report?.failed ?? []) lines.push(`FAILED ${f.id}: ${f.error}`);
  if (prepared.warnings.length) {
    lines.push(`Warnings (${prepared.warnings.length}):`);
    for (const w of prepared.warnings.slice(0, MAX_LISTED)) lines.push(`  - ${w}`);
    if (prepared.warnings.length > MAX_LISTED) {
      lines.push(`  … and ${prepared.warnings.length - MAX_LISTED} more`);
    }
  }
  return lines.join("\n");
}
