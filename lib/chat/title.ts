/**
 * Chat titles: a heuristic one from the first question (always available,
 * also offline), refined by a real model through /api/title when one is set.
 */
import type { UIMessage } from "ai";

/** The text of a message's text parts. */
export function messageText(message: UIMessage): string {
  return message.parts.flatMap((p) => p.type === "text" ? [p.text] : []).join(" ").trim();
}

/** Cleans a title and caps it at 60 characters, on a word boundary when possible. */
export function clampTitle(raw: string): string {
  const text = raw.replace(/\s+/g, " ").replace(/^["'“”«»\s#*]+|["'“”«»\s*.]+$/g, "").trim();
  if (text.length <= 60) return text;
  const cut = text.slice(0, 59);
  const space = cut.lastIndexOf(" ");
  return (space > 30 ? cut.slice(0, space) : cut).replace(/[,;:.\s]+$/, "") + "…";
}

/** A title from the first question, in its own language. */
export function fallbackTitle(message: UIMessage): string {
  const text = messageText(message);
  return clampTitle(text.replace(/[?!]+$/, "")) || "…";
}
