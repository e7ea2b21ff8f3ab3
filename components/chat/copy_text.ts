/**
 * An answer as the visitor copies it: its markdown with the `[N]` citations kept, then its
 * sources as markdown links, so a pasted answer still says where each claim came from.
 */
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { textOf } from "@/lib/client/chat_text.ts";
import { citedSourcesOf } from "./sources.ts";

/** Brackets and parentheses that would end a markdown link's text or URL early. */
function linkText(title: string): string {
  return title.replace(/([\[\]\\])/g, "\\$1");
}

function linkUrl(url: string): string {
  return url.replace(/[()\s]/g, (c) => encodeURIComponent(c));
}

/**
 * The text put on the clipboard for answer `m`: the answer, a blank line, `sourcesLabel:` and
 * one line per source, `[N] [Title](url)` (the URL scrolls to the passage); a source without a
 * safe http(s) link keeps its title only.
 *
 * @example
 * ```ts
 * answerForCopy(answer, "Sources"); // "Kept 30 days [1].\n\nSources:\n[1] [Privacy](https://…)"
 * ```
 */
export function answerForCopy(m: ChatMessage, sourcesLabel: string): string {
  const text = textOf(m, true).trim();
  const sources = citedSourcesOf(m);
  if (!sources.length) return text;
  const lines = sources.map((s) =>
    s.href ? `[${s.n}] [${linkText(s.title)}](${linkUrl(s.href)})` : `[${s.n}] ${s.title}`
  );
  return `${text}\n\n${sourcesLabel}:\n${lines.join("\n")}`;
}
