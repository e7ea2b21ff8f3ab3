/**
 * The shape of a chat id, on its own so that pages and light routes can check one without
 * loading the request schema (zod and the AI SDK; see lib/chat/lazy.ts).
 */

/** Chat ids are opaque client-generated tokens. */
export const CHAT_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** A new random chat id, in the shape the browser's client makes them. */
export function newChatId(): string {
  return "c" + crypto.randomUUID().replaceAll("-", "").slice(0, 20);
}
