import assert from "node:assert/strict";
import { agreedPairs, type SentencePair, trainModel1 } from "./word_alignment.ts";

const words = (s: string) => s.split(" ");
const corpus: SentencePair[] = [
  ["a casa", "the house"],
  ["a casa azul", "the blue house"],
  ["o carro azul", "the blue car"],
  ["o carro", "the car"],
  ["a casa grande", "the big house"],
  ["o carro grande", "the big car"],
].map(([pt, en]) => [words(pt), words(en)]);

Deno.test("trainModel1: each word's likeliest translation is the one it co-occurs with alone", () => {
  const table = trainModel1(corpus);
  const best = (w: string) => [...table.get(w)!].sort((a, b) => b[1] - a[1])[0][0];
  assert.equal(best("casa"), "house");
  assert.equal(best("carro"), "car");
  assert.equal(best("azul"), "blue");
  assert.equal(best("grande"), "big");
  for (const row of table.values()) {
    // Each row is a distribution over target words (up to the rounding of the EM sums).
    const sum = [...row.values()].reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-9, `row sums to ${sum}`);
  }
});

Deno.test("agreedPairs: pairs both directions agree on, function words left out", () => {
  const forward = trainModel1(corpus);
  const backward = trainModel1(corpus.map(([s, t]) => [t, s]));
  const skip = (w: string) => ["a", "o", "the"].includes(w);
  const pairs = agreedPairs(forward, backward, { forward: 0.3, backward: 0.3, perWord: 1, skip });
  assert.deepEqual(
    new Map(pairs),
    new Map([["casa", "house"], ["azul", "blue"], ["carro", "car"], ["grande", "big"]]),
  );
});
