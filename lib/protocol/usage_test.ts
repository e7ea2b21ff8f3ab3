import assert from "node:assert/strict";
import { costUsd, countedTokens, usageCostUsd } from "./usage.ts";

const PRICES = { inputPerMTok: 2, outputPerMTok: 8 };

Deno.test("costUsd uses prices per million tokens", () => {
  assert.equal(costUsd(PRICES, 500_000, 250_000), 3);
});

Deno.test("usageCostUsd: null without a price or with a count missing, never a guess", () => {
  assert.equal(usageCostUsd(PRICES, { inputTokens: 1_000_000, outputTokens: 0 }), 2);
  assert.equal(usageCostUsd(undefined, { inputTokens: 1, outputTokens: 1 }), null);
  assert.equal(usageCostUsd(PRICES, { inputTokens: 1 }), null);
  assert.equal(usageCostUsd(PRICES, { outputTokens: 1, totalTokens: 1 }), null);
});

Deno.test("countedTokens: a reported total of 0 next to real counts does not hide them", () => {
  assert.equal(countedTokens({ inputTokens: 10, outputTokens: 5, totalTokens: 0 }), 15);
  assert.equal(countedTokens({ inputTokens: 10, outputTokens: 5, totalTokens: 20 }), 20);
  assert.equal(countedTokens({}), 0);
});
