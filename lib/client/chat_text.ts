/** Text helpers of the message list: a message's text, math detection, error wording. */
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { format, type Messages } from "@/lib/i18n/mod.ts";
import { ChatRequestError } from "@/lib/client/chat.ts";

/** Text that may hold TeX math (`$`, `\\(`, `\\[`): load the math renderer with markdown. */
export const MATH_HINT = /\$|\\\(|\\\[/;

/** The text of a message; citations dropped unless `keepCitations`. */
export function textOf(message: ChatMessage, keepCitations = false): string {
  const text = message.parts.flatMap((p) => p.type === "text" ? [p.text] : []).join("\n\n");
  return keepCitations ? text : text.replace(/\s?\[\d+\]/g, "");
}

/** What the error banner says about a failed request. */
export function errorText(error: Error, t: Messages): string {
  if (error instanceof ChatRequestError && error.code === "rate_limited") {
    return format(t.rateLimited, { s: 60 });
  }
  return t.errorGeneric;
}
