/**
 * The widget's settings, read from its `<script>` tag: `data-lang` (pt-BR | en),
 * `data-position` (bottom-right | bottom-left) and `data-agent` (an agent id), and
 * the assistant's origin from the script's own URL. Browser-safe, no DOM needed.
 */
import type { Locale } from "@/lib/i18n/mod.ts";

/** The message the frame posts to the host page to close the panel (its close button, Escape). */
export const CLOSE_MESSAGE = "site-assistant:close";

/** What the loader needs to know. */
export interface WidgetOptions {
  /** The assistant's origin (where widget.js came from). */
  origin: string;
  locale: Locale;
  position: "bottom-right" | "bottom-left";
  agent: string | null;
}

/**
 * The options of a script tag with `src` and `data-*` attributes `data`; `pageLang` (the
 * host page's `<html lang>`) is the fallback language.
 *
 * @example widgetOptions("https://a.example/widget.js", { lang: "en" }, "") // locale "en"
 */
export function widgetOptions(
  src: string,
  data: Record<string, string | undefined>,
  pageLang = "",
): WidgetOptions {
  const lang = (data.lang ?? pageLang).trim().toLowerCase();
  const agent = data.agent?.trim() ?? "";
  return {
    origin: new URL(src).origin,
    locale: lang.startsWith("en") ? "en" : "pt-BR",
    position: /left/i.test(data.position ?? "") ? "bottom-left" : "bottom-right",
    // The frame checks it against the configured agents; here it only must be a plain id.
    agent: /^[A-Za-z0-9_-]{1,64}$/.test(agent) ? agent : null,
  };
}

/** The URL of the widget's frame for `options`. */
export function frameUrl(options: WidgetOptions): string {
  const url = new URL("/widget", options.origin);
  url.searchParams.set("lang", options.locale);
  if (options.agent) url.searchParams.set("agent", options.agent);
  return url.href;
}

/** Key of the panel's open/closed state in the host page's sessionStorage. */
export const OPEN_KEY = "site-assistant:open";

/** The part of sessionStorage the loader uses. */
export type OpenStateStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/**
 * Whether the panel was open on the host site's previous page in this tab. Only this flag
 * is kept on the host page: the visitor's token and chats stay in the frame's own storage.
 */
export function wasOpen(storage: OpenStateStorage | null): boolean {
  try {
    return storage?.getItem(OPEN_KEY) === "1";
  } catch {
    return false;
  }
}

/** Remembers the panel's state for the next page of the host site (errors ignored). */
export function rememberOpen(storage: OpenStateStorage | null, open: boolean): void {
  try {
    if (open) storage?.setItem(OPEN_KEY, "1");
    else storage?.removeItem(OPEN_KEY);
  } catch { /* refused: the panel starts closed */ }
}
