/** An answer's actions: copy it, and rate it (thumbs, with a comment on a thumbs down). */
import { type Signal, useSignal } from "@preact/signals";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

/** A rating of an answer; null: none. */
export type Rating = "up" | "down" | null;

/** The feedback state of every answer and its handlers. */
export interface AnswerFeedback {
  ratings: Signal<Record<string, Rating>>;
  /** The answer whose comment box is open. */
  commenting: Signal<string | null>;
  /** The answer just copied (for 1.5 s). */
  copied: Signal<string | null>;
  /** Puts `text` (the answer with its sources, built by the caller) on the clipboard. */
  copyAnswer: (m: ChatMessage, text: string) => Promise<void>;
  /** Rates `m` (the same rating again clears it), saved with POST /api/chats/:id/feedback. */
  rate: (m: ChatMessage, rating: "up" | "down", comment?: string) => Promise<void>;
}

/** Feedback on chat `chatId`'s answers, starting from the ratings saved with them. */
export function useAnswerFeedback(
  initialMessages: ChatMessage[],
  chatId: string,
): AnswerFeedback {
  const ratings = useSignal<Record<string, Rating>>(
    Object.fromEntries(initialMessages.map((m) => [m.id, m.metadata?.feedback?.rating ?? null])),
  );
  const commenting = useSignal<string | null>(null);
  const copied = useSignal<string | null>(null);

  async function copyAnswer(m: ChatMessage, text: string) {
    await navigator.clipboard.writeText(text);
    copied.value = m.id;
    setTimeout(() => copied.value === m.id && (copied.value = null), 1500);
  }

  async function rate(m: ChatMessage, rating: "up" | "down", comment?: string) {
    const same = ratings.value[m.id] === rating && comment === undefined;
    const next = same ? null : rating;
    ratings.value = { ...ratings.value, [m.id]: next };
    commenting.value = next === "down" && comment === undefined ? m.id : null;
    await fetch(`/api/chats/${encodeURIComponent(chatId)}/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messageId: m.id, rating: next, comment }),
    }).catch(() => {});
  }

  return { ratings, commenting, copied, copyAnswer, rate };
}
