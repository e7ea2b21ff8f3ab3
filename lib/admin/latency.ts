/**
 * Per-call latency for the admin page: time to first byte and total time of the
 * recorded upstream calls, p50 and p95 by model and route.
 */
import type { UpstreamCall } from "@/lib/models/types.ts";

/** Latency of one model and route. */
export interface LatencyRow {
  model: string;
  route: string;
  calls: number;
  /** Null when no call of the group got a response. */
  ttfbP50: number | null;
  ttfbP95: number | null;
  totalP50: number;
  totalP95: number;
}

/** The nearest-rank `p`th percentile (0–100) of `values`; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** p50/p95 of first byte and total by model and route, sorted by model then route. */
export function latencyByModelAndRoute(calls: readonly UpstreamCall[]): LatencyRow[] {
  const groups = new Map<string, UpstreamCall[]>();
  for (const c of calls) {
    const key = `${c.model}\u0000${c.route}`;
    const list = groups.get(key);
    if (list) list.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()].map((list) => {
    const ttfb = list.flatMap((c) => c.ttfbMs === null ? [] : [c.ttfbMs]);
    const total = list.map((c) => c.totalMs);
    return {
      model: list[0].model,
      route: list[0].route,
      calls: list.length,
      ttfbP50: percentile(ttfb, 50),
      ttfbP95: percentile(ttfb, 95),
      totalP50: percentile(total, 50)!,
      totalP95: percentile(total, 95)!,
    };
  }).sort((a, b) => a.model < b.model ? -1 : a.model > b.model ? 1 : a.route < b.route ? -1 : 1);
}
