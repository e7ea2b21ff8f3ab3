import assert from "node:assert/strict";
import { pick, rates, type Scored } from "./eval_gate.ts";

const item = (set: string, covered: boolean, match: number, cover: number): Scored => ({
  id: `${set}/${match}/${cover}`,
  set,
  covered,
  calibrate: true,
  match,
  cover,
});

Deno.test("eval:gate picks both halves: coverage refuses what match alone lets through", () => {
  const items = [
    item("faq", true, 0.7, 0.5),
    item("faq", true, 0.6, 0.4),
    item("manual", true, 0.8, 0.2),
    // Off-topic questions whose words a wordy site holds somewhere: they match as well as
    // the covered ones, but no sentence holds much of them.
    item("offtopic", false, 0.75, 0.05),
    item("offtopic", false, 0.65, 0.1),
    item("offtopic", false, 0.2, 0.5),
  ];
  const gate = pick(items);
  assert.deepEqual(rates(items, gate), { coveredRefused: 0, offTopicRefused: 1 });
  assert.ok(gate.coverage > 0.1 && gate.coverage <= 0.2, JSON.stringify(gate));
  assert.ok(gate.match > 0.2 && gate.match <= 0.6, JSON.stringify(gate));
});

Deno.test("eval:gate weighs each set alike, not each question", () => {
  const many = Array.from({ length: 9 }, (_, i) => item("big", true, 0.5, 0.5 + i / 100));
  const items = [...many, item("small", true, 0.9, 0.5), item("off", false, 0.4, 0.5)];
  // Refusing the whole big set counts as one set of two, not nine questions of ten.
  assert.deepEqual(rates(items, { match: 0.6, coverage: 0 }), {
    coveredRefused: 0.5,
    offTopicRefused: 1,
  });
});
