import assert from "node:assert/strict";
import { percentile } from "./latency.ts";

Deno.test("percentile: nearest rank", () => {
  const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
  assert.equal(percentile(values, 50), 5);
  assert.equal(percentile(values, 95), 10);
  assert.equal(percentile([42], 95), 42);
  assert.equal(percentile([], 50), null);
});
