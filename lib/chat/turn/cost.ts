/**
 * What a turn cost, from the catalog's prices: computed once per turn, when the engine
 * reports its totals, and read from there by the answer's metadata and the request's log.
 */
import type { LanguageModelUsage } from "ai";
import { findModel } from "@/lib/models/catalog.ts";

/** USD for `usage` on `modelId`; null when the model has no price or a count is missing. */
export function turnCostUsd(modelId: string, usage: LanguageModelUsage): number | null {
  const prices = findModel(modelId)?.pricing;
  const { inputTokens, outputTokens } = usage;
  if (!prices || inputTokens === undefined || outputTokens === undefined) return null;
  return (inputTokens * prices.inputPerMTok + outputTokens * prices.outputPerMTok) / 1e6;
}

/**
 * The tokens a turn counts against the daily budgets. Some providers report a total of 0
 * next to real counts: the larger wins.
 */
export function countedTokens(usage: LanguageModelUsage): number {
  return Math.max(usage.totalTokens ?? 0, (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0));
}
