/**
 * Tokens and what they cost: the usage an answer's metadata carries, the tokens a turn counts
 * against the daily budgets, and the price of a call. One home, so the answer's metadata, the
 * request log and the gateway's per-call log compute cost the same way.
 */

/** Token counts as providers report them; any may be missing. */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

/** Public list prices in US dollars per million tokens. */
export interface Pricing {
  inputPerMTok: number;
  outputPerMTok: number;
}

/**
 * USD for a call's tokens at `pricing`.
 *
 * @example costUsd({ inputPerMTok: 0.4, outputPerMTok: 1.6 }, 1000, 500); // 0.0012
 */
export function costUsd(pricing: Pricing, inputTokens: number, outputTokens: number): number {
  return (inputTokens * pricing.inputPerMTok + outputTokens * pricing.outputPerMTok) / 1_000_000;
}

/** USD for `usage` at `pricing`; null without a price or when a count is missing. */
export function usageCostUsd(pricing: Pricing | undefined, usage: TokenUsage): number | null {
  const { inputTokens, outputTokens } = usage;
  if (!pricing || inputTokens === undefined || outputTokens === undefined) return null;
  return costUsd(pricing, inputTokens, outputTokens);
}

/**
 * The tokens a turn counts against the daily budgets. Some providers report a total of 0
 * next to real counts: the larger wins.
 */
export function countedTokens(usage: TokenUsage): number {
  return Math.max(usage.totalTokens ?? 0, (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0));
}
