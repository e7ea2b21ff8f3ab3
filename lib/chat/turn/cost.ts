/**
 * What a turn cost, from the catalog's prices: computed once per turn, when the engine
 * reports its totals, and read from there by the answer's metadata and the request's log.
 */
import { findModel } from "@/lib/models/catalog.ts";
import { type TokenUsage, usageCostUsd } from "@/lib/protocol/usage.ts";

/** USD for `usage` on `modelId`; null when the model has no price or a count is missing. */
export function turnCostUsd(modelId: string, usage: TokenUsage): number | null {
  return usageCostUsd(findModel(modelId)?.pricing, usage);
}
