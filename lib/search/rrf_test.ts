import assert from "node:assert/strict";
import { rrf, RRF_K } from "./rrf.ts";

Deno.test("RRF sums 1/(k + rank) over lists, no normalisation", () => {
  assert.equal(RRF_K, 60);
  const fused = rrf([[1, 2, 3], [3, 1]]);
  const byId = new Map(fused.map((f) => [f.id, f]));
  assert.equal(byId.get(1)!.score, 1 / 61 + 1 / 62);
  assert.equal(byId.get(3)!.score, 1 / 63 + 1 / 61);
  assert.equal(byId.get(2)!.score, 1 / 62);
  assert.deepEqual(byId.get(2)!.ranks, [2, null]);
  assert.deepEqual(fused.map((f) => f.id), [1, 3, 2]);
});

Deno.test("RRF with one list keeps its order", () => {
  assert.deepEqual(rrf([[5, 4, 9]]).map((f) => f.id), [5, 4, 9]);
});
