/**
 * The stream phase of a chat turn: runs the chat engine over the plan, holds
 * its chunks until the first content (so an upstream failure before the first
 * token is still a JSON 502), then writes them as Server-Sent Events with
 * citations checked, and saves the answer when the engine ends.
 */
import type { UIMessageChunk } from "ai";
import { MessageBuilder } from "@/lib/protocol/message_builder.ts";
import type { Ctx } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { findModel } from "@/lib/models/catalog.ts";
import { collectRoutes } from "@/lib/models/call_routes.ts";
import type { UpstreamRoute } from "@/lib/models/types.ts";
import type { AppServices } from "@/lib/services.ts";
import { listenCheckMs } from "@/lib/store/stream_log.ts";
import { recordGap } from "@/lib/store/gaps.ts";
import { turnGap } from "@/lib/gaps/turn_gap.ts";
import { type CitationCounts, citationFilter } from "./citations.ts";
import { runTurn, type TurnEnd, type TurnTotals } from "./engine/run_turn.ts";
import { SSE_HEADERS, sseWriter } from "./sse.ts";
import { deltaMerger } from "./delta_merge.ts";
import type { ChatMessage, ChatMessageMetadata } from "@/lib/protocol/ui_message.ts";
import type { TurnPlan } from "./turn_plan.ts";
import { approvalHook } from "./turn_approval.ts";
import { noteTurn } from "./turn_facts.ts";
import { inSpan, tracedModel, TURN_SPANS } from "@/lib/telemetry/spans.ts";
import {
  beginSave,
  type Begun,
  continueSave,
  countTokens,
  outcomeOf,
  placeholderAnswer,
  saveAnswer,
  settledAnswer,
} from "./turn_save.ts";

/** What the visitor sees when something fails inside the stream; details go to the log. */
const GENERIC_STREAM_ERROR = "The answer could not be completed. Please try again.";

/**
 * Chunk types that do not open the stream: the first token is the first chunk after them.
 * An abort before any content means nobody is reading: the turn ends unopened. The
 * prefetched search's chunks (up to its output) are preamble too: they come before any model
 * call, and a provider failing on its first call is still a JSON 502.
 */
const PREAMBLE = new Set(["start", "start-step", "finish-step", "message-metadata", "abort"]);

/** Runs the planned turn; resolves to the SSE response, or throws an `HttpError` before it starts. */
export async function streamTurn(
  ctx: Ctx,
  plan: TurnPlan,
): Promise<Response> {
  const { app } = ctx;
  const abort = visitorAbort(ctx.req);
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
        ? continueSave(app, plan, plan.continued)
        : beginSave(app, plan, placeholderAnswer(plan, answer.message.id)),
    { "chat.save": "start" },
  );
  const log = logAfterStart(app, plan, begun, answer.message.id, abort);
  const relay = createRelay(app, plan, answer);
  const routes: UpstreamRoute[] = [];
  const ended = collectRoutes(routes, () => runEngine(app, plan, answer, relay, abort, routes));
  noteTurn(ctx.req, plan.modelId, ended, routes);

  const first = await Promise.race([relay.opened, ended.then(() => "end" as const)]);
  const start = await begun;
  if (!start.ok && start.refused) {
    abort.stop();
    throw start.refused;
  }
  const turnLog = (await log.opened)!; // null only for a refused start
  if (first === "error") {
    abort.stop();
    // Failed, whatever the engine reports after the stop above; followers end with it too.
    void ended.then((end) => {
      void turnLog.end(end, { failed: true });
      return settle(app, plan, answer, end, start, { opened: false, failed: true });
    });
    // The question is saved: the cookie lets a brand-new visitor retry in the same chat.
    const cookie = plan.visitor.setCookie;
    throw new HttpError(
      "upstream_error",
      "The model provider failed before answering. Please try again.",
      cookie ? { "Set-Cookie": cookie } : undefined,
    );
  }
  if (first === "end" && abort.signal.aborted) {
    // Gone before the first token: nobody reads this stream.
    void ended.then((end) => {
      void turnLog.end(end, { aborted: true });
      return settle(app, plan, answer, end, start, { opened: false });
    });
    return new Response(null, { status: 204 });
  }
  return openStream(app, plan, {
    answer,
    relay,
    ended,
    start,
    abort,
    log: turnLog,
    reading: log.readBy,
  });
}

/** Runs the chat engine over the plan, its chunks into `relay`. */
function runEngine(
  app: AppServices,
  plan: TurnPlan,
  answer: MessageBuilder<ChatMessage>,
  relay: Relay,
  abort: ReturnType<typeof visitorAbort>,
  routes: UpstreamRoute[],
): Promise<TurnEnd> {
  return runTurn({
    model: tracedModel(plan.model, plan.modelId),
    instructions: plan.instructions,
    messages: plan.modelMessages,
    tools: plan.tools,
    maxSteps: app.config.maxSteps,
    maxOutputTokens: app.config.maxOutputTokens,
    toolCalls: app.config.toolCalls,
    abortSignal: abort.signal,
    messageId: answer.message.id,
    toolApproval: approvalHook(app, plan.turnTools, plan.context),
    ...(plan.prefetch ? { prefetch: plan.prefetch } : {}),
    startMetadata: {
      agentId: plan.agentId,
      model: plan.modelId,
      createdAt: plan.startedAt,
      // The page shows them as "‹ 1/2 ›" and holds what the server saves.
      ...(plan.earlier.length ? { earlier: plan.earlier } : {}),
    },
    finishMetadata: (totals) => finishMetadata(app, plan, totals, relay.ttftMs(), routes),
    errorText: (error, where) => {
      console.error(`Chat ${plan.chatId}: ${where} error:`, error);
      return GENERIC_STREAM_ERROR;
    },
  }, relay.emit);
}

/**
 * The turn's stream log, opened once the start is saved (none for a refused start), before
 * the first token: a second tab or a reload follows the answer from its start, and the first
 * token never waits on the log's first write.
 */
function logAfterStart(
  app: AppServices,
  plan: TurnPlan,
  begun: Promise<Begun>,
  messageId: string,
  abort: ReturnType<typeof visitorAbort>,
) {
  // One stream per turn: an answer continued after approvals keeps its message id, and a
  // new stream must not read the values its previous turn left in the log.
  const streamId = `${messageId}.${crypto.randomUUID().slice(0, 8)}`;
  let reading = () => true; // until the response exists, the visitor waits on this request
  return {
    opened: begun.then((start) =>
      !start.ok && start.refused ? null : openLog(app, plan, streamId, abort, () => reading())
    ),
    /** From the response on: whether its reader is still there. */
    readBy: (open: () => boolean) => void (reading = open),
  };
}

/**
 * The turn's abort: the visitor going away before the answer was delivered, or a stop
 * requested through the stream log (from any isolate), which aborts whatever the connection.
 */
function visitorAbort(req: Request) {
  const controller = new AbortController();
  let delivered = false;
  const reason = () => new DOMException("The visitor stopped the answer.", "AbortError");
  const stop = () => {
    if (!delivered) controller.abort(reason());
  };
  // Deno 2.9 also fires request.signal after a response was fully sent: only an abort
  // before our stream finished is a real client disconnect.
  req.signal.addEventListener("abort", stop, { once: true });
  return {
    signal: controller.signal,
    stop,
    /** An explicit stop (POST /api/chat/:id/stop), or nobody reads: aborts whatever the connection. */
    stopRequested: () => controller.abort(reason()),
    /** From here on an abort is not the visitor stopping the answer. */
    delivered: () => (delivered = true),
  };
}

type Relay = ReturnType<typeof createRelay>;

/**
 * Where the engine's chunks go: through the citation filter into the saved answer, and
 * held until the first content chunk; after that, straight to `forward`.
 */
function createRelay(
  app: AppServices,
  plan: TurnPlan,
  answer: MessageBuilder<ChatMessage>,
) {
  const counts: CitationCounts = { valid: 0, invalid: 0 };
  const head: UIMessageChunk[] = [];
  let forward: ((chunk: UIMessageChunk) => void) | null = null;
  let ttftMs: number | undefined;
  // Until the prefetched search answered, its chunks do not open the stream.
  let prefetching = plan.prefetch !== null;
  let open!: (first: "content" | "error") => void;
  const opened = new Promise<"content" | "error">((resolve) => (open = resolve));
  const filter = citationFilter(
    counts,
    plan.citable,
    (kind) =>
      kind === "abort"
        ? { finishReason: "aborted", outcome: "stopped", latencyMs: app.clock() - plan.startedAt }
        : {},
  );
  const deliver = (chunk: UIMessageChunk) => {
    if (
      ttftMs === undefined && (chunk.type === "text-delta" || chunk.type === "reasoning-delta")
    ) {
      ttftMs = app.clock() - plan.startedAt;
    }
    if (chunk.type !== "error") answer.apply(chunk);
    if (forward) return forward(chunk);
    head.push(chunk);
    if (prefetching) {
      prefetching = !isPrefetchOutput(chunk, plan.prefetch!.toolCallId);
      if (chunk.type !== "error" && chunk.type !== "abort") return;
    }
    if (!PREAMBLE.has(chunk.type)) open(chunk.type === "error" ? "error" : "content");
  };
  const emit = (chunk: UIMessageChunk) => filter(chunk, deliver);
  plan.sources.onSource = (s) =>
    emit({ type: "source-url", sourceId: String(s.n), url: s.url, title: s.title });
  return {
    emit,
    opened,
    ttftMs: () => ttftMs,
    /** Sends the held chunks and every later one to `to`. */
    flushTo(to: (chunk: UIMessageChunk) => void) {
      forward = to;
      head.forEach(to);
      head.length = 0;
    },
  };
}

/** Whether `chunk` is the output (or error) of the prefetched call `toolCallId`. */
function isPrefetchOutput(chunk: UIMessageChunk, toolCallId: string): boolean {
  return (chunk.type === "tool-output-available" || chunk.type === "tool-output-error") &&
    chunk.toolCallId === toolCallId;
}

/** Opens the SSE body, and saves the answer (then closes the body) when the engine ends. */
function openStream(
  app: AppServices,
  plan: TurnPlan,
  turn: {
    answer: MessageBuilder<ChatMessage>;
    relay: Relay;
    ended: Promise<TurnEnd>;
    start: Begun;
    abort: ReturnType<typeof visitorAbort>;
    log: TurnLog;
    /** Tells the log whether this request's reader is still there. */
    reading: (open: () => boolean) => void;
  },
): Response {
  // Once the answer streams, a dropped connection does not stop it (the visitor may resume):
  // an explicit stop does, or nobody reading it for `abandonAfterSeconds`.
  turn.abort.delivered();
  const body = sseWriter({ heartbeatMs: app.heartbeatMs });
  const log = turn.log;
  turn.reading(() => body.open);
  // The chunks held until the first token (the start, a prefetched search, the first
  // delta): sent in one write, so the first token arrives with them, not several writes later.
  let held: string[] | null = [];
  const merged = deltaMerger((chunk) => {
    // One JSON text per chunk, for the SSE line and the log alike.
    const json = JSON.stringify(chunk);
    if (held) held.push(json);
    else body.sendJson(json);
    log.append(chunk, json);
  }, app.deltaMergeMs);
  turn.relay.flushTo(merged.push);
  merged.flush(); // the held chunks go out whole, merged deltas included
  body.sendJsonAll(held);
  held = null;
  turn.ended.then(async (end) => {
    merged.flush();
    const saved = settle(app, plan, turn.answer, end, turn.start, {
      opened: true,
      aborted: turn.abort.signal.aborted,
    });
    void log.end(end, { aborted: turn.abort.signal.aborted });
    if (!body.open) return;
    // The timeout only guards a hang of the store.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ok = await Promise.race([
      saved,
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 30_000))),
    ]);
    clearTimeout(timer);
    if (!ok) body.send({ type: "data-notice", data: { code: "save_failed" }, transient: true });
    body.close();
  });
  const headers = new Headers(SSE_HEADERS);
  if (plan.visitor.setCookie) headers.set("Set-Cookie", plan.visitor.setCookie);
  return new Response(body.body, { headers });
}

/** Seconds between the producer's heartbeats in the stream log. */
const LOG_HEARTBEAT_MS = 5_000;

type TurnLog = ReturnType<typeof openLog>;

/**
 * The turn's side of the stream log: the chunks sent to the visitor, a heartbeat while the
 * turn runs, and a stop requested from any isolate aborting the turn.
 */
function openLog(
  app: AppServices,
  plan: TurnPlan,
  streamId: string,
  abort: ReturnType<typeof visitorAbort>,
  producerReads: () => boolean,
) {
  const writer = app.streamLog.open(plan.chatId, streamId, plan.visitor.id);
  const beat = setInterval(() => void writer.heartbeat(), LOG_HEARTBEAT_MS);
  const unsubscribe = writer.onStop(abort.stopRequested);
  const abandonMs = app.config.abandonAfterSeconds * 1000;
  let readAt = app.clock();
  let checking = false;
  // Who reads: this request's own reader, or a follower's touch (GET /stream, any isolate).
  const watch = setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      if (producerReads()) readAt = app.clock();
      else readAt = Math.max(readAt, await app.streamLog.lastListenedAt(streamId) ?? 0);
      if (app.clock() - readAt >= abandonMs && !abort.signal.aborted) {
        console.warn(`Chat ${plan.chatId}: nobody read the answer for ${abandonMs} ms: stopped.`);
        abort.stopRequested();
      }
    } catch (error) {
      console.error(`Chat ${plan.chatId}: checking for readers failed:`, error);
    } finally {
      checking = false;
    }
  }, listenCheckMs(app.config.abandonAfterSeconds));
  return {
    append: (chunk: UIMessageChunk, json?: string) => writer.append(chunk, json),
    /**
     * Ends the log with how the turn ended (`failed`: an error before any content, whatever
     * the engine reports after the stop); a write failure is logged, never thrown.
     */
    async end(
      end: TurnEnd,
      { aborted = false, failed = false }: { aborted?: boolean; failed?: boolean },
    ) {
      clearInterval(beat);
      clearInterval(watch);
      unsubscribe();
      const outcome = failed
        ? "error"
        : end.kind === "abort" || aborted
        ? "stopped"
        : end.kind === "error" || end.totals.failed
        ? "error"
        : "finished";
      await writer.end(outcome).catch((error) =>
        console.error(`Chat ${plan.chatId}: ending the stream log failed:`, error)
      );
    },
  };
}

/**
 * The end of a turn: the answer saved with how the turn ended, its tokens counted. A chat
 * whose first question a brand-new visitor abandoned before any response is removed: its
 * cookie never reached them, so nobody could ever open it.
 */
async function settle(
  app: AppServices,
  plan: TurnPlan,
  answer: MessageBuilder<ChatMessage>,
  end: TurnEnd,
  start: Begun,
  { opened, aborted = false, failed = false }: {
    opened: boolean;
    aborted?: boolean;
    failed?: boolean;
  },
): Promise<boolean> {
  void countTokens(app, plan, end);
  if (
    !opened && !failed && end.kind === "abort" && plan.newChat && plan.visitor.setCookie && start.ok
  ) {
    await app.store.deleteChat(plan.chatId, { allowReuse: true }).catch((error) =>
      console.error(`Chat ${plan.chatId}: removing an abandoned chat failed:`, error)
    );
    return true;
  }
  const saved = settledAnswer(
    answer.message,
    failed ? "failed" : outcomeOf(end, aborted),
    plan.earlier,
  );
  const gap = turnGap({ ...plan, at: app.clock() }, saved, saved.metadata?.outcome ?? "failed");
  // Recorded beside the save, never in the way of the visitor's answer (/admin/gaps).
  if (gap) void recordGap(app.kv, gap);
  return await inSpan(TURN_SPANS.save, () => saveAnswer(app, plan, saved, start), {
    "chat.save": "end",
  });
}

/** The metadata of a finished answer: usage, cost, timings and the upstream routes. */
function finishMetadata(
  app: AppServices,
  plan: TurnPlan,
  totals: TurnTotals,
  ttftMs: number | undefined,
  routes: UpstreamRoute[],
): ChatMessageMetadata {
  const { usage, finishReason } = totals;
  const info = findModel(plan.modelId);
  const cost = info && usage.inputTokens !== undefined && usage.outputTokens !== undefined
    ? (usage.inputTokens * info.pricing.inputPerMTok +
      usage.outputTokens * info.pricing.outputPerMTok) / 1e6
    : null;
  return {
    usage: {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.totalTokens,
    },
    costUsd: cost,
    finishReason: totals.failed ? "error" : finishReason,
    outcome: outcomeOf({ kind: "finish", totals }, false),
    latencyMs: app.clock() - plan.startedAt,
    ttftMs,
    routes: [...routes],
  };
}

/** Id of a new assistant message. */
function newMessageId(): string {
  return `msg_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
}
