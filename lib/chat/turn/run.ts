/**
 * One chat turn, free of HTTP: plan → stream → save → (continue, on a later turn). Takes
 * the visitor's request as plain values and the app's ports, runs the chat engine, and
 * gives its chunks to a sink and one final result. The HTTP adapter (lib/chat/turn_http.ts)
 * turns a refusal into a JSON error and the stream into Server-Sent Events.
 */
import type { LanguageModelUsage } from "ai";
import { MessageBuilder } from "@/lib/protocol/message_builder.ts";
import { collectRoutes } from "@/lib/models/call_routes.ts";
import type { UpstreamRoute } from "@/lib/models/types.ts";
import type { NumberedSource } from "@/lib/tools/search_site.ts";
import { inSpan, tracedModel, TURN_SPANS } from "@/lib/telemetry/spans.ts";
import { runTurn, type TurnEnd } from "../engine/run_turn.ts";
import type { AnswerOutcome, ChatMessage } from "@/lib/protocol/ui_message.ts";
import { type TurnAbort, turnAbort } from "./abort.ts";
import { approvalHook } from "./approval.ts";
import { turnCostUsd } from "./cost.ts";
import type { TurnDeps } from "./deps.ts";
import { type LogProducer, openLog } from "./log_producer.ts";
import { finishMetadata, startMetadata } from "./metadata.ts";
import { type EndFacts, turnOutcome } from "./outcome.ts";
import { startOutput, type TurnSink } from "./output.ts";
import { type ChatTurnInput, planTurn, type TurnPlan } from "./plan.ts";
import { createRelay, type Relay } from "./relay.ts";
import { beginSave, type Begun, continueSave, placeholderAnswer, settle } from "./save.ts";

export type { ChatTurnInput } from "./plan.ts";
export type { TurnDeps } from "./deps.ts";
export type { TurnSink } from "./output.ts";

/** What the visitor sees when something fails inside the stream; details go to the log. */
const GENERIC_STREAM_ERROR = "The answer could not be completed. Please try again.";

/** How a turn ended, once the engine ended. */
export interface TurnResult {
  outcome: AnswerOutcome;
  modelId: string;
  usage: LanguageModelUsage;
  /** The turn's cost from the catalog's prices; null unless the engine finished with counts. */
  costUsd: number | null;
  routes: readonly UpstreamRoute[];
  /** The passages the site search numbered, in order: the answer's sources. */
  sources: readonly NumberedSource[];
  /** The engine ran to its end (neither aborted nor thrown): `usage` is what it reported. */
  finished: boolean;
  /** What failed, when the engine ended in an error. */
  error?: unknown;
}

/**
 * A planned and started turn. `start` says how its stream began: with content (pipe it to
 * a sink), with an error before any content (the provider failed: nothing to stream), or
 * with the visitor gone before the first token.
 */
export interface ChatTurn {
  start: "content" | "failed" | "gone";
  modelId: string;
  /** A brand-new visitor's cookie, for whatever answers the request. */
  setCookie: string | null;
  /** Sends the stream to `sink` and closes it once the answer is saved (`start` "content"). */
  pipeTo(sink: TurnSink): Promise<void>;
  /** Resolves when the engine ends. */
  result: Promise<TurnResult>;
  /** Resolves when the answer is saved (false: it could not be). */
  saved: Promise<boolean>;
}

/** A turn in flight: what the phases share. */
interface Running {
  deps: TurnDeps;
  plan: TurnPlan;
  answer: MessageBuilder<ChatMessage>;
  relay: Relay;
  abort: TurnAbort;
  /** What the stream phase learns beyond the engine's end. */
  facts: EndFacts;
  ended: Promise<TurnEnd>;
  /** The turn's result once the engine ended with `end`, its outcome decided in one place. */
  resultOf(end: TurnEnd): TurnResult;
}

/**
 * Runs one turn. Rejects with an `HttpError` (its code says why) when the turn is refused
 * before anything streams: a bad request, a limit, a chat of someone else.
 */
export async function runChatTurn(input: ChatTurnInput, deps: TurnDeps): Promise<ChatTurn> {
  const plan = await planTurn(input, deps);
  const abort = turnAbort(input.signal);
  // The answer as the client builds it, kept for the save: the same chunks, the same builder.
  // A continued answer (after approvals) goes on in the same message.
  const answer = new MessageBuilder<ChatMessage>(
    plan.continued ?? undefined,
    plan.continued?.id ?? newMessageId(),
  );
  // Saved alongside the model call's start, off the path to the first token.
  const begun = inSpan(
    TURN_SPANS.save,
    () =>
      plan.continued
        ? continueSave(deps, plan, plan.continued)
        : beginSave(deps, plan, placeholderAnswer(plan, answer.message.id)),
    { "chat.save": "start" },
  );
  const elapsed = () => deps.clock() - plan.startedAt;
  const relay = createRelay({ answer, prefetch: plan.prefetch, elapsed });
  const turn = runEngine({ deps, plan, answer, relay, abort });
  // The stream log opens once the start is saved (none for a refused start), before the
  // first token: a second tab or a reload follows the answer from its start.
  let reading = () => true; // until a sink exists, the visitor waits on this turn
  const logOpened = begun.then((start) =>
    !start.ok && start.refused ? null : openTurnLog(turn, () => reading())
  );
  const first = await Promise.race([relay.opened, turn.ended.then(() => "end" as const)]);
  const start = await begun;
  if (!start.ok && start.refused) {
    abort.stop();
    throw start.refused;
  }
  const log = (await logOpened)!; // null only for a refused start
  if (first === "error") {
    abort.stop();
    turn.facts.failedBeforeContent = true;
    return unopened(turn, start, log, "failed");
  }
  if (first === "end" && abort.signal.aborted) {
    turn.facts.aborted = true; // gone before the first token: nobody reads this stream
    return unopened(turn, start, log, "gone");
  }
  return opened(turn, start, log, (open) => (reading = open));
}

/** Runs the chat engine over the plan, its chunks into the relay. */
function runEngine(turn: Omit<Running, "facts" | "ended" | "resultOf">): Running {
  const { deps, plan, answer, relay, abort } = turn;
  const facts: EndFacts = {};
  const routes: UpstreamRoute[] = [];
  let costUsd: number | null = null;
  const ended = collectRoutes(routes, () =>
    runTurn({
      model: tracedModel(plan.model, plan.modelId),
      instructions: plan.instructions,
      messages: plan.modelMessages,
      tools: plan.tools,
      maxSteps: deps.config.maxSteps,
      maxOutputTokens: deps.config.maxOutputTokens,
      toolCalls: deps.config.toolCalls,
      abortSignal: abort.signal,
      messageId: answer.message.id,
      toolApproval: approvalHook(deps, plan.turnTools, plan.context),
      ...(plan.prefetch ? { prefetch: plan.prefetch } : {}),
      startMetadata: startMetadata(plan),
      finishMetadata: (totals) => {
        costUsd = turnCostUsd(plan.modelId, totals.usage);
        const latencyMs = deps.clock() - plan.startedAt;
        return finishMetadata({ totals, costUsd, latencyMs, ttftMs: relay.ttftMs(), routes });
      },
      errorText: (error, where) => {
        console.error(`Chat ${plan.chatId}: ${where} error:`, error);
        return GENERIC_STREAM_ERROR;
      },
    }, relay.emit));
  const resultOf = (end: TurnEnd): TurnResult => ({
    outcome: turnOutcome(end, { ...facts, aborted: facts.aborted || abort.signal.aborted }),
    modelId: plan.modelId,
    usage: end.kind === "finish" ? end.totals.usage : end.usage,
    costUsd: end.kind === "finish" ? costUsd : null,
    finished: end.kind === "finish",
    routes: [...routes],
    sources: relay.sources,
    ...(end.kind === "error" ? { error: end.error } : {}),
  });
  return { ...turn, facts, ended, resultOf };
}

/** A turn whose stream never opened: ended for the visitor, saved and logged when it ends. */
function unopened(turn: Running, start: Begun, log: LogProducer, how: "failed" | "gone"): ChatTurn {
  const result = turn.ended.then((end) => ({ end, result: turn.resultOf(end) }));
  const saved = result.then(({ end, result: { outcome } }) => {
    void log.end(outcome);
    return settle(turn.deps, turn.plan, turn.answer.message, end, start, {
      opened: false,
      outcome,
    });
  });
  const why = how === "gone" ? "its visitor left" : "it failed";
  return {
    start: how,
    modelId: turn.plan.modelId,
    setCookie: turn.plan.visitor.setCookie,
    pipeTo: () => Promise.reject(new Error(`The turn has no stream: ${why} before any content.`)),
    result: result.then((r) => r.result),
    saved,
  };
}

/** A turn whose stream opened: its chunks go to the sink it is piped to. */
function opened(
  turn: Running,
  start: Begun,
  log: LogProducer,
  readBy: (open: () => boolean) => void,
): ChatTurn {
  const { deps, plan, abort } = turn;
  let saved!: (ok: Promise<boolean>) => void;
  return {
    start: "content",
    modelId: plan.modelId,
    setCookie: plan.visitor.setCookie,
    result: turn.ended.then(turn.resultOf),
    saved: new Promise<boolean>((resolve) => (saved = resolve)),
    async pipeTo(sink) {
      // Once the answer streams, a dropped connection does not stop it (the visitor may
      // resume): an explicit stop does, or nobody reading it for `abandonAfterSeconds`.
      abort.delivered();
      readBy(() => sink.open);
      const merged = startOutput(turn.relay, sink, log, deps.deltaMergeMs);
      const end = await turn.ended;
      merged.flush();
      const { outcome } = turn.resultOf(end);
      const ok = settle(deps, plan, turn.answer.message, end, start, { opened: true, outcome });
      saved(ok);
      void log.end(outcome);
      if (!sink.open) return;
      // The timeout only guards a hang of the store.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = await Promise.race([
        ok,
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 30_000))),
      ]);
      clearTimeout(timer);
      if (!done) sink.send({ type: "data-notice", data: { code: "save_failed" }, transient: true });
      sink.close();
    },
  };
}

/**
 * The turn's stream log, opened once the start is saved (none for a refused start), before
 * the first token reaches a sink: a second tab or a reload follows the answer from its start.
 */
function openTurnLog(turn: Running, producerReads: () => boolean) {
  return openLog(turn.deps, {
    chatId: turn.plan.chatId,
    visitorId: turn.plan.visitor.id,
    messageId: turn.answer.message.id,
    abort: turn.abort,
    producerReads,
  });
}

/** Id of a new assistant message. */
function newMessageId(): string {
  return `msg_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
}
