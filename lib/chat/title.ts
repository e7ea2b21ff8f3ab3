/**
 * Chat titles: a heuristic one from the first question (always available,
 * also offline), refined by a real model through /api/title when one is set.
 */
import type { UIMessage } from "ai";
import { boundedPrefix } from "@/lib/text/scan.ts";
import { asksNothing, withoutCourtesy } from "@/lib/text/courtesy.ts";

/** The text of a message's text parts. */
export function messageText(message: UIMessage): string {
  return message.parts.flatMap((p) => p.type === "text" ? [p.text] : []).join(" ").trim();
}

/** Longest part of a question a title is made from: the title keeps 60 characters at most. */
const TITLE_SOURCE_CHARS = 1000;

/**
 * `text` without the characters `strip` accepts at its start (`lead`) and its end (`trail`).
 * Index scans, not an end-anchored regex: `/[x]+$/` retries from every position of a long
 * run of `x` that is followed by anything else, which is quadratic on visitor text.
 */
export function trimChars(
  text: string,
  lead: (c: string) => boolean,
  trail: (c: string) => boolean = lead,
): string {
  let start = 0;
  let end = text.length;
  while (start < end && lead(text[start])) start++;
  while (end > start && trail(text[end - 1])) end--;
  return text.slice(start, end);
}

const charsOf = (chars: string) => (c: string) => chars.includes(c);
const QUOTES = `"'“”«»`;
const TITLE_LEAD = charsOf(`${QUOTES} #*`);
const TITLE_TRAIL = charsOf(`${QUOTES} *.`);
const CUT_TRAIL = charsOf(",;:. ");

/** Cleans a title and caps it at 60 characters, on a word boundary when possible. */
export function clampTitle(raw: string): string {
  const text = trimChars(
    boundedPrefix(raw, TITLE_SOURCE_CHARS).replace(/\s+/g, " "),
    TITLE_LEAD,
    TITLE_TRAIL,
  );
  if (text.length <= 60) return text;
  const cut = text.slice(0, 59);
  const space = cut.lastIndexOf(" ");
  return trimChars(space > 30 ? cut.slice(0, space) : cut, () => false, CUT_TRAIL) + "…";
}

/**
 * A title from the first question, in its own language, without the greeting or thanks
 * around it ("Bom dia! Quanto tempo vocês guardam…? Obrigado" → "Quanto tempo vocês guardam…").
 */
export function fallbackTitle(message: UIMessage): string {
  const text = withoutCourtesy(boundedPrefix(messageText(message), TITLE_SOURCE_CHARS));
  return clampTitle(trimChars(text, () => false, charsOf("?!"))) || "…";
}

/**
 * Whether a message can name its chat: "Oi!", "Obrigado!", "Ok" say nothing of what the chat
 * is about, so a chat that opens with one is titled by the first question after it. Questions
 * about the assistant ("O que você sabe fazer?") do name it.
 */
export function namesChat(message: UIMessage): boolean {
  return !asksNothing(boundedPrefix(messageText(message), TITLE_SOURCE_CHARS));
}

/** The visitor's first message that can name the chat, or null while there is none. */
export function titleSource(messages: readonly UIMessage[]): UIMessage | null {
  return messages.find((m) => m.role === "user" && namesChat(m)) ?? null;
}
