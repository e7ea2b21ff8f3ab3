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
