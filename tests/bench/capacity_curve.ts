/**
 * Where a server's added first-token p95 crosses the target, from its medians along a grid of
 * N (tests/bench/capacity_bench.ts). The added p95 can only grow with N, so medians that fall
 * as N rises are the machine's noise: the crossing is read off the closest non-decreasing
 * curve (pool adjacent violators), not off the first median that happened to fail, and such
 * a run says it cannot be trusted.
 */

/**
 * A server's median added p95 (ms) at N: +∞ when a stream failed or was cut; NaN (no
 * sample) fails as well.
 */
export interface CurvePoint {
  n: number;
  median: number;
}

/** A server's capacity as {@linkcode capacityFrom} reads it. */
export interface Capacity {
  /** Streams held: where the fitted curve crosses the target, interpolated. */
  capacity: number;
  /** The largest N whose fitted value is within the target; 0 for none. */
  held: number;
  /** The smallest N whose fitted value is over the target; null for none. */
  failed: number | null;
  /** False when a median held at some N after one failed at a smaller N. */
  consistent: boolean;
}

/**
 * The non-decreasing sequence closest to `ys` in least squares (pool adjacent violators):
 * a run of values that falls is replaced by its mean. +∞ pools to +∞.
 * Example: `monotoneFit([5, 12, 6, 14])` → `[5, 9, 9, 14]`.
 */
export function monotoneFit(ys: number[]): number[] {
  const blocks: { sum: number; count: number }[] = [];
  for (const y of ys) {
    blocks.push({ sum: y, count: 1 });
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1], before = blocks[blocks.length - 2];
      if (before.sum / before.count <= last.sum / last.count) break;
      blocks.pop();
      before.sum += last.sum;
      before.count += last.count;
    }
  }
  return blocks.flatMap((b) => Array<number>(b.count).fill(b.sum / b.count));
}

/**
 * The capacity from `points` (any order): below the first N whose fitted value exceeds
 * `target`, by linear interpolation between that N and the one before it; 0 when even the
 * first N failed.
 */
export function capacityFrom(points: CurvePoint[], target: number): Capacity {
  const sorted = points
    .map(({ n, median }) => ({ n, median: Number.isNaN(median) ? Infinity : median }))
    .sort((a, b) => a.n - b.n);
  const fit = monotoneFit(sorted.map((p) => p.median));
  const firstFail = sorted.findIndex((p) => p.median > target);
  const consistent = firstFail < 0 || sorted.slice(firstFail).every((p) => p.median > target);
  const over = fit.findIndex((y) => y > target);
  if (over < 0) {
    const top = sorted.at(-1)?.n ?? 0;
    return { capacity: top, held: top, failed: null, consistent };
  }
  const failed = sorted[over].n;
  if (over === 0) return { capacity: 0, held: 0, failed, consistent };
  const held = sorted[over - 1].n, lo = fit[over - 1], hi = fit[over];
  const at = Number.isFinite(hi) ? held + ((failed - held) * (target - lo)) / (hi - lo) : held;
  return { capacity: Math.min(failed - 1, Math.floor(at)), held, failed, consistent };
}

/**
 * N to probe inside a capacity's bracket when it is wider than `resolution` streams:
 * `count` points evenly between the last N held and the first that failed (none when the
 * server held everywhere or nowhere). The added p95 bends sharply near a server's limit,
 * so a straight line across a wide bracket reads a steep curve's crossing too low and a flat
 * one's too high: run 12's bracket was 50 to 88 for both servers, with nothing probed between.
 * Example: `refineBetween({ held: 50, failed: 88, … }, 3, 8)` → `[60, 69, 79]`.
 */
export function refineBetween(c: Capacity, count: number, resolution: number): number[] {
  if (c.failed === null || c.held === 0 || c.failed - c.held <= resolution) return [];
  const step = (c.failed - c.held) / (count + 1);
  const ns = Array.from({ length: count }, (_, i) => Math.round(c.held + (i + 1) * step));
  return [...new Set(ns)].filter((n) => n > c.held && n < c.failed!);
}
