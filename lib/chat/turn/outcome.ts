/**
 * How a turn ended, decided in one place: the saved answer, the stream log, the request's
 * log line and the turn's result all read this one value, in one vocabulary.
 */
import type { TurnEnd } from "../engine/run_turn.ts";
import type { AnswerOutcome } from "@/lib/protocol/ui_message.ts";

/** What the stream phase knows beyond the engine's own end. */
export interface EndFacts {
  /** The turn was aborted (a stop, or the visitor gone before delivery). */
  aborted?: boolean;
  /** An error came before any content: failed, whatever the engine reports after the stop. */
  failedBeforeContent?: boolean;
}

/** The outcome of a turn that ended with `end`. */
export function turnOutcome(end: TurnEnd, facts: EndFacts = {}): AnswerOutcome {
  if (facts.failedBeforeContent) return "failed";
  if (end.kind === "abort" || facts.aborted) return "stopped";
  if (end.kind === "error" || end.totals.failed) return "failed";
  if (end.totals.awaitingApproval) return "awaiting-approval";
  return end.totals.stepLimitReached ? "step-limit" : "finished";
}
