/**
 * Answers saved before internal documents were kept on the server still hold their
 * passages' text in the `search_site` output (`url: null` with `text`). Whatever reads
 * saved messages for a visitor or a model passes them through here: such a passage
 * becomes a reference like new ones (`{ ref, title, internal: true }`), whose text the
 * search tool resolves for the model when the index still has it.
 */
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

/** A legacy internal passage as it was saved. */
interface LegacyPassage {
  title?: unknown;
  url?: unknown;
  text?: unknown;
  internal?: unknown;
}

const isLegacyInternal = (p: LegacyPassage) =>
  p !== null && typeof p === "object" && p.url === null && typeof p.text === "string" &&
  p.internal !== true;

/** `messages` with every legacy internal passage replaced by a reference; others untouched. */
export function scrubInternal(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((message) => {
    if (message.role !== "assistant") return message;
    let changed = false;
    const parts = message.parts.map((part) => {
      const output = (part as { output?: { passages?: LegacyPassage[] } }).output;
      if (part.type !== "tool-search_site" || !Array.isArray(output?.passages)) return part;
      if (!output.passages.some(isLegacyInternal)) return part;
      changed = true;
      const passages = output.passages.map((p) =>
        isLegacyInternal(p)
          ? { ref: `legacy:${String(p.title ?? "")}`, title: String(p.title ?? ""), internal: true }
          : p
      );
      return { ...part, output: { ...output, passages } } as typeof part;
    });
    return changed ? { ...message, parts } : message;
  });
}
