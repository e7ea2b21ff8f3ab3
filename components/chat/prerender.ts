/**
 * Markdown of saved messages rendered on the server, so /c/:id reads well with
 * JavaScript off and the island hydrates the same HTML before its own
 * markdown renderer has loaded (no flash of plain text).
 */
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import type { RenderMarkdown } from "@/lib/client/markdown.ts";
import { sourcesOf } from "./sources.ts";

/** Key of one text part in the prerendered map. */
export function partKey(messageId: string, index: number): string {
  return `${messageId}:${index}`;
}

/** The citation link of `[n]` in a message, or null when it names no source. */
export function citeHrefFor(message: ChatMessage): (n: number) => string | null {
  const numbers = new Set(sourcesOf(message).map((s) => s.n));
  return (n) => numbers.has(n) ? `#src-${message.id}-${n}` : null;
}

/** HTML of every assistant text part, keyed by `partKey`. */
export function prerenderMessages(
  messages: ChatMessage[],
  render: RenderMarkdown,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    const cite = citeHrefFor(message);
    message.parts.forEach((part, i) => {
      if (part.type === "text" && part.text) out[partKey(message.id, i)] = render(part.text, cite);
    });
  }
  return out;
}
