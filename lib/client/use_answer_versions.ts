/**
 * Earlier answers to a question, kept when the visitor regenerates ("1/2 ‹ ›"), and which one
 * is shown. The server keeps them on the new answer (`metadata.earlier`, read after a reload);
 * until that answer is reloaded, the page keeps its own copy, made when Regenerate is pressed.
 */
import { type Signal, useSignal } from "@preact/signals";
import type { ChatMessage, EarlierAnswer } from "@/lib/protocol/ui_message.ts";

/** The versions state of every answer, keyed by the id of the question it answers. */
export interface AnswerVersions {
  /** Earlier answers kept in this page, per question. */
  kept: Signal<Record<string, EarlierAnswer[]>>;
  /** The version shown per question (an index into `versionsOf`); absent: the latest. */
  shown: Signal<Record<string, number>>;
  /** Keeps `answer` (and its own earlier ones) before it is regenerated. */
  keep: (questionId: string, answer: ChatMessage) => void;
  /** Every version of `answer`, oldest first, `answer` itself last. */
  versionsOf: (questionId: string, answer: ChatMessage) => ChatMessage[];
}

/** The answers' versions, for the thread. */
export function useAnswerVersions(): AnswerVersions {
  const kept = useSignal<Record<string, EarlierAnswer[]>>({});
  const shown = useSignal<Record<string, number>>({});

  const earlierOf = (questionId: string, answer: ChatMessage) =>
    answer.metadata?.earlier ?? kept.value[questionId] ?? [];

  const keep = (questionId: string, answer: ChatMessage) => {
    const { earlier: _earlier, feedback: _feedback, ...metadata } = answer.metadata ?? {};
    const before = earlierOf(questionId, answer);
    kept.value = {
      ...kept.value,
      [questionId]: [...before, { id: answer.id, parts: answer.parts, metadata }],
    };
    const { [questionId]: _shown, ...others } = shown.value;
    shown.value = others;
  };

  const versionsOf = (questionId: string, answer: ChatMessage): ChatMessage[] => [
    ...earlierOf(questionId, answer).map((e) => ({ ...e, role: "assistant" as const })),
    answer,
  ];

  return { kept, shown, keep, versionsOf };
}
