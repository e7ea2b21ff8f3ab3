/**
 * The widget loader, bundled to static/widget.js for other sites:
 * `<script src="https://<assistant>/widget.js" defer></script>`.
 *
 * It adds a launcher button and an empty panel inside a Shadow DOM (the page's CSS
 * cannot reach them, theirs cannot reach the page) and nothing else. The first open asks
 * `GET /api/widget` whether this page's origin is allowed, then puts the chat in the panel
 * as an iframe of the assistant's own origin: the full chat UI, with its own CSP, scripts
 * and storage. A refused origin sees the reason in the panel instead. Whether the panel is
 * open is kept in the page's sessionStorage, so the next page of the site opens it again
 * (the frame then continues its chat); the visitor's token never reaches the page.
 */
import { type WidgetMessages, widgetMessages } from "@/lib/i18n/widget.ts";
import {
  CLOSE_MESSAGE,
  frameUrl,
  type OpenStateStorage,
  rememberOpen,
  wasOpen,
  type WidgetOptions,
  widgetOptions,
} from "./options.ts";

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true"><path d="M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.2 3.6A.5.5 0 0 1 5 19.2V16h.5" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/></svg>';
const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

/**
 * The shadow root's styles. `:host` resets everything the page could pass down by
 * inheritance, with `!important`, which beats the page's own `!important` rules on the host.
 */
function styles(side: "left" | "right"): string {
  return `:host{all:initial!important;position:fixed!important;bottom:20px!important;${side}:20px!important;z-index:2147483000!important;display:block!important;font:15px/1.4 system-ui,sans-serif!important;color-scheme:light dark}
*{box-sizing:border-box}
.launcher{all:unset;box-sizing:border-box;width:56px;height:56px;border-radius:50%;display:grid;place-items:center;cursor:pointer;background:#0f766e;color:#fff;box-shadow:0 6px 20px rgba(0,0,0,.25);margin-${side}:auto}
.launcher:focus-visible{outline:3px solid #2563eb;outline-offset:3px}
.launcher:hover{background:#0b5f58}
.panel{position:absolute;bottom:68px;${side}:0;width:min(400px,calc(100vw - 40px));height:min(640px,calc(100vh - 108px));border-radius:16px;overflow:hidden;background:#fff;box-shadow:0 12px 40px rgba(0,0,0,.3);border:1px solid rgba(0,0,0,.12)}
.panel[hidden]{display:none}
iframe{border:0;width:100%;height:100%;display:block;color-scheme:normal}
.error{margin:24px;color:#8a1c1c;font:15px/1.5 system-ui,sans-serif}
@media (prefers-color-scheme:dark){.panel{background:#16171a;border-color:rgba(255,255,255,.14)}.error{color:#ffb4b4}}
@media (max-width:480px){.panel{position:fixed;inset:0;width:auto;height:auto;border-radius:0;border:0}.open .launcher{position:fixed;top:8px;${side}:8px;width:40px;height:40px;z-index:1;box-shadow:none;background:transparent;color:inherit}.open.framed .launcher{display:none}}`;
}

/** Mounts the launcher and the panel for `options`; returns the host element. */
export function mountWidget(options: WidgetOptions): HTMLElement {
  const t = widgetMessages(options.locale);
  const host = document.createElement("site-assistant");
  const shadow = host.attachShadow({ mode: "open" });
  const side = options.position === "bottom-left" ? "left" : "right";
  shadow.innerHTML = `<style>${styles(side)}</style><div class="root">` +
    `<div class="panel" role="dialog" aria-label="${t.widgetTitle}" hidden></div>` +
    `<button type="button" class="launcher" aria-expanded="false"></button></div>`;
  const root = shadow.querySelector<HTMLElement>(".root")!;
  const panel = shadow.querySelector<HTMLElement>(".panel")!;
  const launcher = shadow.querySelector<HTMLButtonElement>(".launcher")!;
  let frame: HTMLIFrameElement | null = null;
  let opening = false;
  const session = pageSession();
  const reopen = wasOpen(session); // read before the closed start below forgets it

  const show = (open: boolean) => {
    rememberOpen(session, open);
    panel.hidden = !open;
    root.classList.toggle("open", open);
    launcher.setAttribute("aria-expanded", String(open));
    launcher.setAttribute("aria-label", open ? t.widgetClose : t.widgetOpen);
    launcher.innerHTML = open ? CLOSE_ICON : CHAT_ICON;
  };
  show(false);

  /** Opens the panel; `focus` moves focus into it (not when restored on a page load). */
  async function open(focus = true) {
    show(true);
    if (frame || opening) return focus && frame?.focus();
    opening = true;
    const refusal = await checkOrigin(options.origin, t);
    opening = false;
    if (refusal) {
      panel.innerHTML = `<p class="error" role="alert"></p>`;
      panel.firstElementChild!.textContent = refusal;
      return;
    }
    panel.textContent = "";
    frame = document.createElement("iframe");
    frame.title = t.widgetTitle;
    frame.src = frameUrl(options);
    frame.allow = "clipboard-write";
    panel.append(frame);
    // Full screen on a phone: the frame's bar has the close button (the launcher would cover it).
    root.classList.add("framed");
    if (focus) frame.focus();
  }

  launcher.addEventListener("click", () => panel.hidden ? void open() : show(false));
  addEventListener("message", (e) => {
    if (e.source === frame?.contentWindow && e.data === CLOSE_MESSAGE) {
      show(false);
      launcher.focus();
    }
  });
  document.body.append(host);
  if (reopen) void open(false);
  return host;
}

/** The page's sessionStorage, or null where the browser refuses it. */
function pageSession(): OpenStateStorage | null {
  try {
    return globalThis.sessionStorage;
  } catch {
    return null;
  }
}

/** Null when this page may embed the assistant, else the text that says why not. */
async function checkOrigin(origin: string, t: WidgetMessages): Promise<string | null> {
  try {
    const res = await fetch(`${origin}/api/widget`, { credentials: "omit" });
    // Read to the end: a body left unread is aborted when the page goes, a failed request.
    const text = await res.text();
    if (res.ok) return null;
    // Not JSON: the catch below says "could not load".
    return JSON.parse(text)?.error?.code === "origin_not_allowed"
      ? t.widgetNotAllowed
      : t.widgetLoadFailed;
  } catch {
    return t.widgetLoadFailed;
  }
}

const script = document.currentScript as HTMLScriptElement | null;
if (script?.src) {
  const options = widgetOptions(
    script.src,
    { ...script.dataset },
    document.documentElement.lang,
  );
  const start = () => mountWidget(options);
  if (document.body) start();
  else addEventListener("DOMContentLoaded", start, { once: true });
}
