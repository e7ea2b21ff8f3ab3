/**
 * The answer's metadata at each point of a turn: when it starts (who answers, which model,
 * when), and when the engine finishes (usage, cost, timings, upstream routes, outcome).
 */
import type { UpstreamRoute } from "@/lib/models/types.ts";
import type { TurnTotals } from "../engine/run_turn.ts";
import type { ChatMessageMetadata } from "@/lib/protocol/ui_message.ts";
import { turnOutcome } from "./outcome.ts";
import type { TurnPlan } from "./plan.ts";

/** The metadata the answer starts with (the page shows `earlier` as "‹ 1/2 ›"). */
export function startMetadata(plan: TurnPlan): ChatMessageMetadata {
  return {
    agentId: plan.agentId,
    model: plan.modelId,
    createdAt: plan.startedAt,
    ...(plan.earlier.length ? { earlier: plan.earlier } : {}),
  };
}

/** What a finished engine run adds to the answer's metadata. */
export interface FinishFacts {
  totals: TurnTotals;
  costUsd: number | null;
  latencyMs: number;
  ttftMs: number | undefined;
  routes: readonly UpstreamRoute[];
}

/** The metadata of a finished answer: usage, cost, timings and the upstream routes. */
export function finishMetadata(facts: FinishFacts): ChatMessageMetadata {
  const { usage, finishReason, failed } = facts.totals;
  return {
    usage: {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.totalTokens,
    },
    costUsd: facts.costUsd,
    finishReason: failed ? "error" : finishReason,
    outcome: turnOutcome({ kind: "finish", totals: facts.totals }),
    latencyMs: facts.latencyMs,
    ttftMs: facts.ttftMs,
    routes: [...facts.routes],
  };
}
