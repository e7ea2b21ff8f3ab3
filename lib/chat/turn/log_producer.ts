/**
 * The turn's side of the stream log (lib/store/stream_log.ts): the chunks sent to the
 * visitor, a heartbeat while the turn runs, a stop requested from any isolate aborting the
 * turn, and the turn aborted when nobody has read it for `abandonAfterSeconds`.
 */
import type { UIMessageChunk } from "ai";
import { listenCheckMs } from "@/lib/store/stream_log.ts";
import type { AnswerOutcome } from "@/lib/protocol/ui_message.ts";
import type { TurnAbort } from "./abort.ts";
import type { TurnDeps } from "./deps.ts";

/** Milliseconds between the producer's heartbeats in the stream log. */
const LOG_HEARTBEAT_MS = 5_000;

/** The producer of one turn's stream log. */
export interface LogProducer {
  append(chunk: UIMessageChunk, json?: string): void;
  /** Ends the log with how the turn ended; a write failure is logged, never thrown. */
  end(outcome: AnswerOutcome): Promise<void>;
}

/** What opens a turn's log. */
export interface LogOptions {
  chatId: string;
  visitorId: string;
  /** The answer's message id; the stream id adds a random part to it. */
  messageId: string;
  abort: TurnAbort;
  /** Whether the turn's own reader (its HTTP response) is still there. */
  producerReads: () => boolean;
}

/** Opens the stream log of a turn. */
export function openLog(deps: TurnDeps, options: LogOptions): LogProducer {
  const { chatId, abort } = options;
  // One stream per turn: an answer continued after approvals keeps its message id, and a
  // new stream must not read the values its previous turn left in the log.
  const streamId = `${options.messageId}.${crypto.randomUUID().slice(0, 8)}`;
  const writer = deps.streamLog.open(chatId, streamId, options.visitorId);
  const beat = setInterval(() => void writer.heartbeat(), LOG_HEARTBEAT_MS);
  const unsubscribe = writer.onStop(abort.stopRequested);
  const watch = watchReaders(deps, streamId, options);
  return {
    append: (chunk, json) => writer.append(chunk, json),
    async end(outcome) {
      clearInterval(beat);
      clearInterval(watch);
      unsubscribe();
      // The log says only whether the stream ended whole, stopped or failed.
      const ended = outcome === "stopped" || outcome === "failed" ? outcome : "finished";
      await writer.end(ended).catch((error) =>
        console.error(`Chat ${chatId}: ending the stream log failed:`, error)
      );
    },
  };
}

/**
 * Who reads: this request's own reader, or a follower's touch (GET /stream, any isolate).
 * Nobody for `abandonAfterSeconds`: the turn is stopped, so no one pays for it.
 */
function watchReaders(deps: TurnDeps, streamId: string, options: LogOptions) {
  const { chatId, abort } = options;
  const abandonMs = deps.config.abandonAfterSeconds * 1000;
  let readAt = deps.clock();
  let checking = false;
  return setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      if (options.producerReads()) readAt = deps.clock();
      else readAt = Math.max(readAt, await deps.streamLog.lastListenedAt(streamId) ?? 0);
      if (deps.clock() - readAt >= abandonMs && !abort.signal.aborted) {
        console.warn(`Chat ${chatId}: nobody read the answer for ${abandonMs} ms: stopped.`);
        abort.stopRequested();
      }
    } catch (error) {
      console.error(`Chat ${chatId}: checking for readers failed:`, error);
    } finally {
      checking = false;
    }
  }, listenCheckMs(deps.config.abandonAfterSeconds));
}
