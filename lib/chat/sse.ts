/**
 * Encodes UI message chunks as Server-Sent Events, the wire format of the AI
 * SDK's UI message stream protocol, with a comment line as heartbeat after 15 s
 * of silence so proxies keep the connection open during long tool calls.
 *
 * One pull-based stream reads the chunks, encodes them and does the per-turn
 * bookkeeping around it (copying chunks for resumption, a last word before the
 * end): every stream hop costs per chunk, and a chat turn has hundreds of chunks.
 * It reads straight from the reader the caller already holds, which a pipe
 * could not (releasing a reader and piping cost more than the read itself).
 */
import type { UIMessageChunk } from "ai";

const encoder = new TextEncoder();
const DONE = encoder.encode("data: [DONE]\n\n");
const HEARTBEAT = encoder.encode(": keep-alive\n\n");

/** Response headers of a UI message stream. */
export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
};

/** Options of `sseStream`. */
export interface SseOptions {
  /** Silence after which a comment line is sent (default 15 s). */
  heartbeatMs?: number;
  /** Chunks already read from the source, sent first. */
  head?: UIMessageChunk[];
  /** Sees every chunk sent, head included. */
  onChunk?: (chunk: UIMessageChunk) => void;
  /** Called when the source ended; returns chunks to send before `[DONE]`. */
  beforeEnd?: () => Promise<UIMessageChunk[]> | UIMessageChunk[];
  /** Called once when the stream ends, normally or cancelled. */
  onEnd?: () => void;
}

/** SSE bytes of the chunks `reader` yields, ending with `data: [DONE]`; cancelling it cancels the source. */
export function sseStream(
  reader: ReadableStreamDefaultReader<UIMessageChunk>,
  options: SseOptions = {},
): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;
  // When the last bytes went out. Chunks only move this mark; the one timer reads it when it
  // fires, since re-arming a timer per chunk costs more than encoding the chunk. Date.now, not
  // performance.now: a V8 builtin instead of an op call, and ms are enough for a heartbeat.
  let lastSentAt = 0;
  const end = () => {
    clearTimeout(timer);
    if (!ended) {
      ended = true;
      options.onEnd?.();
    }
  };
  const send = (
    controller: ReadableStreamDefaultController<Uint8Array>,
    chunk: UIMessageChunk,
  ) => {
    options.onChunk?.(chunk);
    controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
    lastSentAt = Date.now();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const arm = (ms: number) => {
        timer = setTimeout(() => {
          const silent = Date.now() - lastSentAt;
          if (silent < heartbeatMs) return arm(Math.max(1, heartbeatMs - silent));
          try {
            controller.enqueue(HEARTBEAT);
            lastSentAt = Date.now();
            arm(heartbeatMs);
          } catch {
            // The client went away between the timer and the beat.
            end();
          }
        }, ms);
      };
      for (const chunk of options.head ?? []) send(controller, chunk);
      lastSentAt = Date.now();
      arm(heartbeatMs);
    },
    async pull(controller) {
      let next: ReadableStreamReadResult<UIMessageChunk>;
      try {
        next = await reader.read();
      } catch (error) {
        end();
        throw error;
      }
      if (!next.done) return send(controller, next.value);
      for (const chunk of await options.beforeEnd?.() ?? []) send(controller, chunk);
      controller.enqueue(DONE);
      controller.close();
      end();
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/** Turns a stream of chunks into SSE bytes. */
export function toSseBytes(
  chunks: ReadableStream<UIMessageChunk>,
  options: SseOptions = {},
): ReadableStream<Uint8Array> {
  return sseStream(chunks.getReader(), options);
}
