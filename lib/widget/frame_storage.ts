/**
 * What the widget's frame keeps between the host site's pages: its visitor token
 * (token_fetch.ts) and the chat it shows. Both live in the frame's own localStorage, which
 * browsers partition by the embedding site (Chrome, Firefox, Safari), so the host page
 * cannot read them and another site embedding the widget gets another identity. Where the
 * browser refuses the frame any storage, nothing is kept: each page load is a new visitor.
 * Browser-safe, no DOM needed.
 */
import { CHAT_ID } from "./frame_url.ts";

/** Where the frame keeps things (localStorage's shape). */
export interface FrameStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Storage key of the chat the frame shows. */
export const LAST_CHAT_KEY = "site-assistant:chat";

/**
 * Attribute the frame script sets on `<html>` while a kept chat loads, so the new chat's
 * welcome does not flash first (widget.css hides it); the widget's island removes it.
 */
export const RESUMING_ATTR = "data-widget-resuming";

/**
 * The frame's localStorage, or null where the browser refuses it (reading the property or an
 * item throws: third-party storage blocked, Playwright's default Chromium).
 */
export function frameStorage(scope: { localStorage?: Storage } = globalThis): FrameStorage | null {
  try {
    const store = scope.localStorage;
    if (!store) return null;
    store.getItem(LAST_CHAT_KEY);
    return store;
  } catch {
    return null;
  }
}

/** The chat the frame showed last, or null (none kept, no storage, a value that is no id). */
export function readLastChat(storage: FrameStorage | null): string | null {
  try {
    const id = storage?.getItem(LAST_CHAT_KEY) ?? null;
    return id && CHAT_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** Keeps `id` as the chat to reopen, or forgets it (null). Storage errors are ignored. */
export function keepLastChat(storage: FrameStorage | null, id: string | null): void {
  try {
    if (id) storage?.setItem(LAST_CHAT_KEY, id);
    else storage?.removeItem(LAST_CHAT_KEY);
  } catch { /* full or refused: the chat is simply not reopened next time */ }
}
