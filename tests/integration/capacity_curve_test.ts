import assert from "node:assert/strict";
import { capacityFrom, monotoneFit, refineBetween } from "../bench/capacity_curve.ts";

const curve = (ns: number[], medians: number[]) => ns.map((n, i) => ({ n, median: medians[i] }));

Deno.test("monotoneFit pools a falling run into its mean and keeps a rising one", () => {
  assert.deepEqual(monotoneFit([5, 12, 6, 14]), [5, 9, 9, 14]);
  assert.deepEqual(monotoneFit([1, 2, 3]), [1, 2, 3]);
  assert.deepEqual(monotoneFit([3, 2, 1]), [2, 2, 2]);
  assert.deepEqual(monotoneFit([1, Infinity, 4]), [1, Infinity, Infinity]);
  assert.deepEqual(monotoneFit([]), []);
});

Deno.test("a monotone run: the crossing between the last N held and the first that failed", () => {
  // The floor of the capacity bench's run 10 (docs/history/benchmarks-diary.md; 158 there, from the unrounded
  // medians): 150 + 25 × (10 − 8.0) / (13.5 − 8.0).
  const floor = capacityFrom(curve([100, 125, 150, 175, 200], [3.8, 4.5, 8.0, 13.5, 16.0]), 10);
  assert.deepEqual(floor, { capacity: 159, held: 150, failed: 175, consistent: true });
});

Deno.test("a median that holds after a failure is noise: pooled, and the run flagged", () => {
  // The floor of run 11: failed at 44 (12.6 ms), held at 63 (6.0 ms). Read off the first
  // failure, the floor held 37 streams; on the fitted curve (9.3 ms at 44 and 63), 65.
  const floor = capacityFrom(curve([25, 44, 63, 81, 100], [5.0, 12.6, 6.0, 13.9, 18.9]), 10);
  assert.deepEqual(floor, { capacity: 65, held: 63, failed: 81, consistent: false });
});

Deno.test("a cut stream or no sample fails its N; none held gives 0; all held gives the top", () => {
  assert.deepEqual(
    capacityFrom(curve([25, 50], [4, Infinity]), 10),
    { capacity: 25, held: 25, failed: 50, consistent: true },
  );
  assert.deepEqual(
    capacityFrom(curve([25, 50], [4, NaN]), 10),
    { capacity: 25, held: 25, failed: 50, consistent: true },
  );
  assert.deepEqual(
    capacityFrom(curve([25, 50], [11, 30]), 10),
    { capacity: 0, held: 0, failed: 25, consistent: true },
  );
  assert.deepEqual(
    capacityFrom(curve([50, 25], [9, 2]), 10),
    { capacity: 50, held: 50, failed: null, consistent: true },
  );
});

Deno.test("refineBetween: points inside a wide bracket, none in a narrow or open one", () => {
  const bracket = (held: number, failed: number | null) => ({
    capacity: held,
    held,
    failed,
    consistent: true,
  });
  // Run 12: both servers held 50 and failed 88, a 38-stream gap read off one straight line.
  assert.deepEqual(refineBetween(bracket(50, 88), 3, 8), [60, 69, 79]);
  assert.deepEqual(refineBetween(bracket(50, 57), 3, 8), []);
  assert.deepEqual(refineBetween(bracket(50, null), 3, 8), []);
  assert.deepEqual(refineBetween(bracket(0, 25), 3, 8), []);
  // Rounding never repeats an N nor lands on the bracket's ends.
  assert.deepEqual(refineBetween(bracket(10, 12), 3, 0), [11]);
});
