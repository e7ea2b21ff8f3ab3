/**
 * Whether a turn left its question unanswered — the answer says the site does not cover it,
 * the visitor stopped it, or the visitor asked for another answer (regenerate) — and the gap
 * to record for /admin/gaps; and whether its question went on from the previous answer to a
 * related question offered under it. Small talk ("Oi, tudo bem?") is never a gap.
 */
import type { AnswerOutcome, ChatMessage } from "@/lib/protocol/ui_message.ts";
import { saysNotCovered } from "@/lib/eval/answer_metrics.ts";
import { detectLang } from "@/lib/search/detect_lang.ts";
import { smallTalk } from "@/lib/text/courtesy.ts";
import type { GapReason, GapRecord } from "@/lib/store/gaps.ts";

/** The text of a message's text parts. */
export function textOf(message: { parts: ChatMessage["parts"] } | null | undefined): string {
  return (message?.parts ?? []).flatMap((p) => p.type === "text" ? [p.text] : []).join("")
    .trim();
}

/** The gap of an ended turn, or null when its question was answered. */
export function turnGap(
  turn: { chatId: string; question: ChatMessage | null; retried?: ChatMessage | null; at: number },
  answer: ChatMessage,
  outcome: AnswerOutcome,
): GapRecord | null {
  const question = textOf(turn.question ?? turn.retried);
  // "Oi, tudo bem?" asks nothing the site could add a page for.
  if (!question || smallTalk(question)) return null;
  let reason: GapReason | null = null;
  if (outcome === "stopped") reason = "stopped";
  else if (turn.retried) reason = "retried";
  else if (outcome === "finished") {
    const valid = answer.metadata?.citations?.valid ?? 0;
    if (saysNotCovered(textOf(answer), valid)) reason = "not-covered";
  }
  if (!reason) return null;
  return { at: turn.at, chatId: turn.chatId, question, reason, lang: detectLang(question, "pt") };
}

/**
 * The gap of the previous question when this turn asks a related question offered under its
 * answer (`followedFrom`, lib/chat/turn/plan.ts): the answer quoted another entry than the one
 * the visitor went on to, which the owner may want to answer that wording with.
 */
export function relatedGap(
  turn: {
    chatId: string;
    question: ChatMessage | null;
    followedFrom: ChatMessage | null;
    at: number;
  },
): GapRecord | null {
  const question = textOf(turn.followedFrom);
  const followed = textOf(turn.question);
  if (!question || !followed || smallTalk(question)) return null;
  return {
    at: turn.at,
    chatId: turn.chatId,
    question,
    reason: "related",
    lang: detectLang(question, "pt"),
    followed,
  };
}
