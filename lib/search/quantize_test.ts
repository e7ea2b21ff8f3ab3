import assert from "node:assert/strict";
import { DenseScorer } from "./dense.ts";
import { dequantize, normalize, quantize } from "./quantize.ts";

function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32 - 0.5;
  };
}

Deno.test("int8 quantisation round trip is close to the unit vector", () => {
  const r = rng(1);
  const vs = Array.from({ length: 20 }, () => Float32Array.from({ length: 64 }, r));
  const q = quantize(vs, 64);
  vs.forEach((v, i) => {
    const u = normalize(v);
    const d = dequantize(q, i);
    let err = 0;
    for (let j = 0; j < 64; j++) err = Math.max(err, Math.abs(u[j] - d[j]));
    assert.ok(err <= q.scales[i] / 2 + 1e-7, `max error ${err}`);
    for (let j = 0; j < 64; j++) {
      assert.equal((q.bits[i * 2 + (j >> 5)] >>> (j & 31)) & 1, u[j] > 0 ? 1 : 0);
    }
  });
});

Deno.test("wrong dimensions are rejected with the fix", () => {
  assert.throws(() => quantize([new Float32Array(3)], 4), /use one embedding model/);
});

Deno.test("dense search finds the nearest vectors", () => {
  const r = rng(7);
  const vs = Array.from({ length: 500 }, () => Float32Array.from({ length: 128 }, r));
  const s = new DenseScorer(quantize(vs, 128), 50);
  const query = vs[42].map((x) => x + r() * 0.05);
  assert.equal(s.search(query, 5).ids[0], 42);
  assert.throws(() => s.search(new Float32Array(3), 5), /re-index/);
});
