/**
 * Reads, checks and converts a whole import file (the format is in import_file.ts). Nothing
 * is written unless the whole file is valid. A chat is split into several `beginTurn`
 * commits when its messages would exceed ~700 KB (or 900 KV entries) in one.
 */
import { type UIMessage, validateUIMessages } from "ai";
import { encodeMessage } from "@/lib/store/message_slots.ts";
import {
  addStats,
  type ConvertedChat,
  emptyStats,
  ImportFileError,
  MAX_COMMIT_BYTES,
  MAX_COMMIT_ENTRIES,
  type PreparedChat,
  type PreparedImport,
  type PrepareOptions,
  VISITOR_ID,
} from "./import_file.ts";
import { isObj } from "./core_values.ts";
import { convertChat } from "./convert_chat.ts";

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
  const issues: string[] = [];
  const warnings: string[] = [];
  const { chats, visitorId } = readEnvelope(input, options, issues, warnings);
  const converted: Array<ConvertedChat & { ci: number }> = [];
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
    const ready = await checkChat(chat, `chats[${ci}] (id "${chat.id}")`, issues);
    if (ready) prepared.push(ready);
  }
  if (issues.length) throw new ImportFileError(issues);
  const totals = emptyStats();
  for (const chat of prepared) addStats(totals, chat.stats);
  return { visitorId: visitorId as string, chats: prepared, totals, warnings };
}

/** The file's chats and visitor; throws when the file is not one of the two accepted shapes. */
function readEnvelope(
  input: string | unknown,
  options: PrepareOptions,
  issues: string[],
  warnings: string[],
): { chats: unknown[]; visitorId: unknown } {
  let data: unknown = input;
  if (typeof input === "string") {
    try {
      data = JSON.parse(input);
    } catch (error) {
      throw new ImportFileError([`the file is not JSON: ${(error as Error).message}`]);
    }
  }
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
  return { chats, visitorId };
}

/** A converted chat validated and split into commits; null (and issues) when it cannot be written. */
async function checkChat(
  chat: ConvertedChat,
  label: string,
  issues: string[],
): Promise<PreparedChat | null> {
  if (chat.messages.length === 0) return null;
  try {
    // No tool schemas: generic tool parts are checked for their structure only.
    await validateUIMessages({ messages: chat.messages });
  } catch (error) {
    issues.push(`${label}: ${(error as Error).message.split("\n")[0]}`);
    return null;
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
  return { ...chat, commits: splitCommits(chat.messages) };
}
