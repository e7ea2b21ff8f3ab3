/** What a regenerate keeps of the answers it replaces, so the visitor can still read them. */
import type { ChatMessageMetadata, EarlierAnswer } from "@/lib/protocol/ui_message.ts";
import type { UIMessage } from "ai";

/** Most earlier answers kept per question: the oldest go first. */
export const MAX_EARLIER_ANSWERS = 5;

/**
 * The earlier answers a regenerate of `replaced` keeps: its own earlier ones and itself.
 *
 * @example
 * ```ts
 * earlierAnswers(oldAnswer).at(-1)?.id === oldAnswer.id; // true
 * ```
 */
export function earlierAnswers(replaced: UIMessage<ChatMessageMetadata>): EarlierAnswer[] {
  const { earlier = [], feedback: _feedback, ...metadata } = replaced.metadata ?? {};
  return [...earlier, { id: replaced.id, parts: replaced.parts, metadata }].slice(
    -MAX_EARLIER_ANSWERS,
  );
}
