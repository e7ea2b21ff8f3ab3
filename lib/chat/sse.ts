/**
 * Encodes UI message chunks as Server-Sent Events, the wire format of the AI
 * SDK's UI message stream protocol, with a comment line as heartbeat after 15 s
 * of silence so proxies keep the connection open during long tool calls.
 *
 * One TransformStream does the encoding and the per-turn bookkeeping around it
 * (copying chunks for resumption, a last word before the end): every stream
 * hop costs per chunk, and a chat turn has hundreds of chunks.
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

/** Options of `sseEncoder`. */
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

/** A transform from UI message chunks to SSE bytes, ending with `data: [DONE]`. */
export function sseEncoder(options: SseOptions = {}): TransformStream<UIMessageChunk, Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;
  // When the last bytes went out. Chunks only move this mark; the one timer reads it when it
  // fires, since re-arming a timer per chunk costs more than encoding the chunk.
  let lastSentAt = 0;
  const end = () => {
    clearTimeout(timer);
    if (!ended) {
      ended = true;
      options.onEnd?.();
    }
  };
  const send = (
    controller: TransformStreamDefaultController<Uint8Array>,
    chunk: UIMessageChunk,
  ) => {
    options.onChunk?.(chunk);
    controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
    lastSentAt = performance.now();
  };
  return new TransformStream<UIMessageChunk, Uint8Array>({
    start(controller) {
      const arm = (ms: number) => {
        timer = setTimeout(() => {
          const silent = performance.now() - lastSentAt;
          if (silent < heartbeatMs) return arm(Math.max(1, heartbeatMs - silent));
          try {
            controller.enqueue(HEARTBEAT);
            lastSentAt = performance.now();
            arm(heartbeatMs);
          } catch {
            // The client went away between the timer and the beat.
            end();
          }
        }, ms);
      };
      for (const chunk of options.head ?? []) send(controller, chunk);
      lastSentAt = performance.now();
      arm(heartbeatMs);
    },
    transform(chunk, controller) {
      send(controller, chunk);
    },
    async flush(controller) {
      for (const chunk of await options.beforeEnd?.() ?? []) send(controller, chunk);
      controller.enqueue(DONE);
      end();
    },
    cancel() {
      end();
    },
  });
}

/** Turns a stream of chunks into SSE bytes. */
export function toSseBytes(
  chunks: ReadableStream<UIMessageChunk>,
  options: SseOptions = {},
): ReadableStream<Uint8Array> {
  return chunks.pipeThrough(sseEncoder(options));
}
