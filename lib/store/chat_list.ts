/**
 * A visitor's chats, newest first, a page at a time through
 * `["visitor_chat", visitorId, updatedAt, chatId]`. A cursor names the last chat of a page and
 * the visitor it was given to, so a cursor from another visitor's list is refused.
 */
import type { ChatSummary } from "@/lib/protocol/chat_summary.ts";
import type { ChatRecord } from "./ports.ts";
import { type ChatKv, live } from "./chat_kv.ts";
import { InvalidCursorError } from "./errors.ts";
import { getManyBatched } from "./message_slots.ts";

/** A short hash of the visitor id, carried in their cursors. */
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

/** A page of the visitor's chats, newest first; throws `InvalidCursorError` for a cursor it did not give. */
export async function listChats(
  ctx: ChatKv,
  visitorId: string,
  { cursor, limit = 20 }: { cursor?: string; limit?: number } = {},
): Promise<{ chats: ChatSummary[]; cursor: string | null }> {
  const { kv } = ctx;
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
    const c = live(ctx, r.value);
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
}
