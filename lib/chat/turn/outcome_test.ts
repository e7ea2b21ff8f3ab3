import assert from "node:assert/strict";
import type { TurnEnd, TurnTotals } from "../engine/run_turn.ts";
import { turnOutcome } from "./outcome.ts";

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 } as TurnTotals["usage"];

function finish(over: Partial<TurnTotals> = {}): TurnEnd {
  const totals: TurnTotals = {
    finishReason: "stop",
    usage,
    steps: 1,
    stepLimitReached: false,
    awaitingApproval: false,
    failed: false,
    ...over,
  };
  return { kind: "finish", totals };
}

Deno.test("turnOutcome: one vocabulary for every way a turn ends", () => {
  assert.equal(turnOutcome(finish()), "finished");
  assert.equal(turnOutcome(finish({ stepLimitReached: true })), "step-limit");
  assert.equal(turnOutcome(finish({ awaitingApproval: true })), "awaiting-approval");
  assert.equal(turnOutcome(finish({ failed: true })), "failed");
  assert.equal(turnOutcome({ kind: "error", error: new Error("x"), usage }), "failed");
  assert.equal(turnOutcome({ kind: "abort", usage }), "stopped");
  assert.equal(turnOutcome(finish(), { aborted: true }), "stopped");
  // An error before any content fails the turn, whatever the engine reports after the stop.
  assert.equal(turnOutcome({ kind: "abort", usage }, { failedBeforeContent: true }), "failed");
});
