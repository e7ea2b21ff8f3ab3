/**
 * What a chat turn adds to its request's log line (lib/http/request_log.ts): the model at
 * once, then, when the turn ends, the upstream routes, tokens, cost and outcome, all read
 * from the turn's result. Counts and names only: the question and the answer never reach
 * the log.
 */
import { errorName, noteRequest, type TurnFacts } from "@/lib/http/request_log.ts";
import type { TurnResult } from "@/lib/chat/turn/run.ts";

/** Notes the turn on `req`'s log line; the rest when `result` resolves. */
export function noteTurn(req: Request, modelId: string, result: Promise<TurnResult>): void {
  const chat: TurnFacts = { model: modelId };
  noteRequest(req, { chat });
  void result.then((turn) => {
    chat.callRoutes = [...turn.routes];
    chat.outcome = turn.outcome;
    if (turn.error !== undefined) noteRequest(req, { error: errorName(turn.error) });
    if (!turn.finished) return;
    const { inputTokens = null, outputTokens = null } = turn.usage;
    chat.inputTokens = inputTokens;
    chat.outputTokens = outputTokens;
    chat.costUsd = turn.costUsd;
  });
}
