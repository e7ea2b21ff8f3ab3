/**
 * The widget frame's script, bundled to static/widget_frame.js and loaded by /widget
 * before the chat island: API calls carry the visitor token (token_fetch.ts), a kept chat
 * (frame_storage.ts, or the frame URL's `?chat=`) hides the welcome until it loads, links open
 * outside the small frame, and the close button or Escape ask the host page to close it.
 */
import { CLOSE_MESSAGE } from "./options.ts";
import { frameStorage, readLastChat, RESUMING_ATTR } from "./frame_storage.ts";
import { chatInFrameUrl } from "./frame_url.ts";
import { createTokenFetch } from "./token_fetch.ts";

const storage = frameStorage();
globalThis.fetch = createTokenFetch({
  base: fetch.bind(globalThis),
  origin: location.origin,
  storage,
});
// The island reopens the kept chat once it runs; until then its empty chat stays hidden.
if (readLastChat(storage) || chatInFrameUrl(location.href)) {
  document.documentElement.setAttribute(RESUMING_ATTR, "");
}

// Pages of this app refuse to be framed by other sites, and the frame is small: links open
// in a new tab (in-page anchors excepted).
document.addEventListener("click", (e) => {
  const link = (e.target as Element).closest?.("a[href]");
  if (link instanceof HTMLAnchorElement && !link.getAttribute("href")!.startsWith("#")) {
    link.target = "_blank";
    link.rel = "noopener";
  }
}, true);

const close = () => parent.postMessage(CLOSE_MESSAGE, "*");
document.addEventListener("click", (e) => {
  if ((e.target as Element).closest?.("[data-widget-close]")) close();
});
document.addEventListener("keydown", (e) => {
  // Escape stops an answer first (the composer handles it); otherwise it closes the panel.
  if (e.key === "Escape" && !e.defaultPrevented) close();
});
