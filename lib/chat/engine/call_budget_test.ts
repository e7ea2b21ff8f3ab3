import assert from "node:assert/strict";
import { callBudget, ToolCallLimitError } from "./call_budget.ts";

Deno.test("call budget: a step's bound, then the turn's; refusals take no place", () => {
  const budget = callBudget({ perStep: 2, perTurn: 3, concurrency: 1 });
  assert.equal(budget.take(0), null);
  assert.equal(budget.take(1), null);
  const step = budget.take(2);
  assert.ok(step instanceof ToolCallLimitError);
  assert.match(step.message, /at most 2 tool calls/);
  // The next step: one more place in the turn, then the turn's bound.
  assert.equal(budget.take(0), null);
  const turn = budget.take(1);
  assert.ok(turn instanceof ToolCallLimitError);
  assert.match(turn.message, /at most 3 tool calls/);
});

Deno.test("call budget: never more than `concurrency` tasks at once, all of them run", async () => {
  const budget = callBudget({ perStep: 100, perTurn: 100, concurrency: 3 });
  let running = 0;
  let peak = 0;
  const gates: Array<() => void> = [];
  const task = () => {
    peak = Math.max(peak, ++running);
    return new Promise<number>((resolve) =>
      gates.push(() => {
        running--;
        resolve(running);
      })
    );
  };
  const all = Promise.all(Array.from({ length: 10 }, () => budget.run(task)));
  // Finish tasks one at a time, each in its own turn of the event loop, while others arrive.
  let finished = 0;
  while (finished < 10) {
    await new Promise((r) => setTimeout(r, 0));
    const next = gates.shift();
    if (!next) continue;
    next();
    finished++;
    void budget.run(() => Promise.resolve(0)); // a newcomer must queue behind waiting tasks
  }
  await all;
  assert.equal(peak, 3);
});
