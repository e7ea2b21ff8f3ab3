/**
 * The widget frame's own URL names the chat it shows: `/widget?lang=en&chat=<id>`. A reload
 * of just the frame then reopens that chat in the widget (same token, kept by the frame),
 * where `/c/<id>` would refuse to be framed by the host site and look for a cookie the
 * frame never sends. Browser-safe, no DOM needed.
 */

/** Query parameter of the shown chat. */
export const CHAT_PARAM = "chat";

/** Chat ids as the server makes and accepts them (lib/protocol/chat_id.ts CHAT_ID). */
export const CHAT_ID = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * The path and query of the frame at `href` showing chat `id` (null: a new chat), keeping
 * the loader's other parameters (`lang`, `agent`).
 * @example widgetChatPath("https://a.example/widget?lang=en", "c123456789") // "/widget?lang=en&chat=c123456789"
 */
export function widgetChatPath(href: string, id: string | null): string {
  const url = new URL(href);
  if (id) url.searchParams.set(CHAT_PARAM, id);
  else url.searchParams.delete(CHAT_PARAM);
  return `/widget${url.search}`;
}

/** The chat named by the frame URL `href`, or null (none, or a value that is no id). */
export function chatInFrameUrl(href: string): string | null {
  const id = new URL(href).searchParams.get(CHAT_PARAM);
  return id && CHAT_ID.test(id) ? id : null;
}
