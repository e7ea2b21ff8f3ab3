/**
 * What a chat turn adds to its request's log line (lib/http/request_log.ts): the model at
 * once, then, when the turn ends, the upstream routes, tokens, cost and outcome. Counts and
 * names only: the question and the answer never reach the log.
 */
import { errorName, noteRequest, type TurnFacts } from "@/lib/http/request_log.ts";
import { findModel } from "@/lib/models/catalog.ts";
import type { UpstreamRoute } from "@/lib/models/types.ts";
import type { TurnEnd } from "./engine/run_turn.ts";
import { outcomeOf } from "./turn_save.ts";

/** Notes the turn on `req`'s log line; `routes` fills as the turn's upstream calls go out. */
export function noteTurn(
  req: Request,
  modelId: string,
  ended: Promise<TurnEnd>,
  routes: readonly UpstreamRoute[],
): void {
  const chat: TurnFacts = { model: modelId };
  noteRequest(req, { chat });
  void ended.then((end) => {
    chat.callRoutes = [...routes];
    chat.outcome = outcomeOf(end, false);
    if (end.kind === "error") {
      chat.outcome = "failed";
      noteRequest(req, { error: errorName(end.error) });
    }
    if (end.kind !== "finish") return;
    const { inputTokens = null, outputTokens = null } = end.totals.usage;
    chat.inputTokens = inputTokens;
    chat.outputTokens = outputTokens;
    const prices = findModel(modelId)?.pricing;
    chat.costUsd = prices && inputTokens !== null && outputTokens !== null
      ? (inputTokens * prices.inputPerMTok + outputTokens * prices.outputPerMTok) / 1e6
      : null;
  });
}
