/**
 * Converts one chat of an import file (AI SDK 4 `CoreMessage`s) to ai 7 UI messages.
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
 * `validateUIMessages` (prepare.ts).
 */
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { clampTitle, fallbackTitle, titleSource } from "@/lib/chat/title.ts";
import { CHAT_ID } from "@/lib/protocol/chat_id.ts";
import { type ConvertedChat, emptyStats, type ImportStats, NO_RESULT_TEXT } from "./import_file.ts";
import { isObj, type Obj, parseTime, toFileUrl, toolErrorText } from "./core_values.ts";

type ToolPart = {
  type: `tool-${string}`;
  toolCallId: string;
  state: "input-available" | "output-available" | "output-error";
  input: unknown;
  output?: unknown;
  errorText?: string;
};
type Part = ChatMessage["parts"][number];

/** What the conversion of one chat carries from message to message. */
interface Conversion {
  chatId: string;
  label: string;
  issues: string[];
  warnings: string[];
  stats: ImportStats;
  out: ChatMessage[];
  /** Messages whose id was made up (`<chatId>-<index>`), not given. */
  generatedIds: Set<ChatMessage>;
  calls: Map<string, { part: ToolPart; where: string; done: boolean }>;
  /** The assistant message the current run of assistant and tool messages builds. */
  turn: ChatMessage | null;
}

/** One CoreMessage being converted: where it is, for problems, and what it holds. */
interface Source {
  raw: Obj;
  /** Its index in the chat's messages. */
  mi: number;
  at: string;
  createdAt: number | undefined;
  problem: (what: string) => void;
}

/** Converts one chat; problems go to `issues`, notable but valid things to `warnings`. */
export function convertChat(
  chat: unknown,
  label: string,
  issues: string[],
  warnings: string[],
  options: { settlePending?: boolean } = {},
): ConvertedChat | null {
  const header = readHeader(chat, label, issues);
  if (!header) return null;
  const { id, messages, createdAt } = header;
  const c: Conversion = {
    chatId: id,
    label: header.label,
    issues,
    warnings,
    stats: { ...emptyStats(), chats: 1, messagesIn: messages.length },
    out: [],
    generatedIds: new Set(),
    calls: new Map(),
    turn: null,
  };
  const issuesBefore = issues.length;
  messages.forEach((raw, mi) => convertMessage(c, raw, mi));
  closeTurn(c);
  settleCalls(c, options.settlePending === true);
  uniqueIds(c);
  const { out, stats } = c;
  if (out.length === 0 && issues.length === issuesBefore) {
    issues.push(`${c.label}: no user or assistant message to import`);
  }
  if (createdAt !== undefined && out[0] && out[0].metadata?.createdAt === undefined) {
    out[0].metadata = { ...out[0].metadata, createdAt };
  }
  stats.messagesOut = out.length;
  const title = (chat as Obj).title;
  const firstUser = titleSource(out) ?? out.find((m) => m.role === "user");
  return {
    id,
    title: typeof title === "string" && title.trim()
      ? clampTitle(title)
      : firstUser
      ? fallbackTitle(firstUser)
      : undefined,
    messages: out,
    stats,
  };
}

/** The chat's id, messages and time, checked; null when the chat cannot be converted at all. */
function readHeader(
  chat: unknown,
  label: string,
  issues: string[],
): { id: string; label: string; messages: unknown[]; createdAt: number | undefined } | null {
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
  const createdAt = parseTime(chat.createdAt);
  if (Number.isNaN(createdAt)) {
    issues.push(`${label}: "createdAt" must be an ISO date string or epoch milliseconds`);
  }
  if (!Array.isArray(chat.messages)) {
    issues.push(`${label}: "messages" must be an array of AI SDK 4 CoreMessages`);
    return null;
  }
  return { id, label, messages: chat.messages, createdAt };
}

/** Ends the current assistant turn, keeping it if it holds more than step starts. */
function closeTurn(c: Conversion): void {
  if (c.turn && c.turn.parts.some((p) => p.type !== "step-start")) c.out.push(c.turn);
  c.turn = null;
}

function meta(createdAt: number | undefined) {
  return createdAt === undefined ? {} : { metadata: { createdAt } };
}

/** Converts one CoreMessage into the chat's UI messages so far. */
function convertMessage(c: Conversion, raw: unknown, mi: number): void {
  const at = `${c.label}, messages[${mi}]`;
  const problem = (what: string) => void c.issues.push(`${at}: ${what}`);
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
  const source: Source = { raw, mi, at, createdAt, problem };
  switch (raw.role) {
    case "system":
      if (typeof content !== "string") return problem("system content must be a string");
      c.stats.systemDropped++;
      return;
    case "user":
      closeTurn(c);
      if (!Array.isArray(parts)) return problem("user content must be a string or an array");
      return convertUser(c, source, parts);
    case "assistant":
      if (!Array.isArray(parts)) return problem("assistant content must be a string or an array");
      return convertAssistant(c, source, parts);
    case "tool":
      if (!Array.isArray(content)) {
        return problem("tool content must be an array of tool-result parts");
      }
      content.forEach((p, pi) => convertToolResult(c, source, p, `content[${pi}]`));
      return;
    default:
      problem(`"role" must be system, user, assistant or tool (got ${JSON.stringify(raw.role)})`);
  }
}

/** A user message: its text and file parts, as one UI message. */
function convertUser(c: Conversion, source: Source, parts: unknown[]): void {
  const { raw, problem } = source;
  const uiParts: Part[] = [];
  parts.forEach((p, pi) => {
    const pat = `content[${pi}]`;
    if (!isObj(p)) return problem(`${pat}: a part must be an object`);
    if (p.type === "text") {
      if (typeof p.text !== "string") return problem(`${pat}: "text" must be a string`);
      if (!p.text.trim()) return void c.stats.droppedParts++;
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
    c.warnings.push(`${source.at}: user message without content, dropped`);
    return;
  }
  const message: ChatMessage = {
    id: (raw.id as string | undefined) ?? `${c.chatId}-${source.mi}`,
    role: "user",
    parts: uiParts,
    ...meta(source.createdAt),
  };
  if (raw.id === undefined) c.generatedIds.add(message);
  c.out.push(message);
}

/** An assistant message: one more step of the current turn's UI message. */
function convertAssistant(c: Conversion, source: Source, parts: unknown[]): void {
  const { raw } = source;
  if (!c.turn) {
    c.turn = {
      id: (raw.id as string | undefined) ?? `${c.chatId}-${source.mi}`,
      role: "assistant",
      parts: [],
      ...meta(source.createdAt),
    };
    if (raw.id === undefined) c.generatedIds.add(c.turn);
  }
  const uiParts = c.turn.parts;
  uiParts.push({ type: "step-start" });
  parts.forEach((p, pi) => assistantPart(c, source, uiParts, p, `content[${pi}]`));
}

/** One part of an assistant message, appended to `uiParts`. */
function assistantPart(c: Conversion, source: Source, uiParts: Part[], p: unknown, pat: string) {
  const { problem } = source;
  if (!isObj(p)) return problem(`${pat}: a part must be an object`);
  switch (p.type) {
    case "text":
    case "reasoning": {
      if (typeof p.text !== "string") return problem(`${pat}: "text" must be a string`);
      if (!p.text) return void c.stats.droppedParts++;
      uiParts.push({ type: p.type, text: p.text, state: "done" });
      return;
    }
    case "redacted-reasoning":
      c.stats.droppedParts++;
      return;
    case "file": {
      const file = toFileUrl(p.data, p.mimeType ?? p.mediaType, "file");
      if (typeof file === "string") return problem(`${pat}: ${file}`);
      uiParts.push({ type: "file", mediaType: file.mediaType, url: file.url });
      return;
    }
    case "tool-call":
      return toolCall(c, source, uiParts, p, pat);
    default:
      problem(`${pat}: unknown assistant part type ${JSON.stringify(p.type)}`);
  }
}

/** A tool call: a `tool-<name>` part waiting for its result. */
function toolCall(c: Conversion, source: Source, uiParts: Part[], p: Obj, pat: string) {
  const { problem } = source;
  if (typeof p.toolCallId !== "string" || !p.toolCallId) {
    return problem(`${pat}: "toolCallId" must be a non-empty string`);
  }
  if (typeof p.toolName !== "string" || !p.toolName) {
    return problem(`${pat}: "toolName" must be a non-empty string`);
  }
  const seen = c.calls.get(p.toolCallId);
  if (seen) {
    return problem(`${pat}: toolCallId "${p.toolCallId}" was already used at ${seen.where}`);
  }
  const part: ToolPart = {
    type: `tool-${p.toolName}`,
    toolCallId: p.toolCallId,
    state: "input-available",
    input: p.args ?? {},
  };
  c.calls.set(p.toolCallId, { part, where: `messages[${source.mi}].${pat}`, done: false });
  c.stats.toolCalls++;
  uiParts.push(part as Part);
}

/** One part of a tool message: finishes the call it answers. */
function convertToolResult(c: Conversion, source: Source, p: unknown, pat: string): void {
  const { at, problem } = source;
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
  const call = c.calls.get(p.toolCallId);
  if (!call) {
    c.stats.orphanResults++;
    c.warnings.push(
      `${at}.${pat}: result for unknown toolCallId "${p.toolCallId}" (${p.toolName}), dropped`,
    );
    return;
  }
  if (call.done) {
    c.warnings.push(`${at}.${pat}: second result for toolCallId "${p.toolCallId}", ignored`);
    return;
  }
  if (`tool-${p.toolName}` !== call.part.type) {
    c.warnings.push(
      `${at}.${pat}: result names tool "${p.toolName}" but call ${call.where} is ` +
        `"${call.part.type.slice(5)}"; the call's name is kept`,
    );
  }
  call.done = true;
  c.stats.matched++;
  const errorText = toolErrorText(p.result, p.isError);
  if (errorText !== null) {
    c.stats.toolErrors++;
    call.part.state = "output-error";
    call.part.errorText = errorText;
  } else {
    call.part.state = "output-available";
    call.part.output = p.result ?? null;
  }
}

/** Counts the calls that never got a result, and settles them as errors when asked to. */
function settleCalls(c: Conversion, settlePending: boolean): void {
  for (const call of c.calls.values()) {
    if (call.done) continue;
    c.stats.pending++;
    if (settlePending) {
      call.part.state = "output-error";
      call.part.errorText = NO_RESULT_TEXT;
    }
    c.warnings.push(
      `${c.label}, ${call.where}: ${call.part.type.slice(5)} call "${call.part.toolCallId}" ` +
        `has no result; ${settlePending ? "settled as output-error" : "kept as input-available"}`,
    );
  }
}

/**
 * Message ids must be unique within a chat: a repeated given id is an error; a generated
 * one that collides with a given id gets a suffix.
 */
function uniqueIds(c: Conversion): void {
  const given = new Map<string, number>();
  c.out.forEach((m, i) => {
    if (c.generatedIds.has(m)) return;
    if (given.has(m.id)) {
      c.issues.push(
        `${c.label}: message id "${m.id}" is used twice (UI messages ${given.get(m.id)} and ${i})`,
      );
    }
    given.set(m.id, i);
  });
  for (const m of c.generatedIds) {
    while (given.has(m.id)) m.id += "-i";
    given.set(m.id, -1);
  }
}
