/**
 * Encodes UI message chunks as Server-Sent Events, the wire format of the AI
 * SDK's UI message stream protocol, with a comment line as heartbeat after 15 s
 * of silence so proxies keep the connection open during long tool calls.
 *
 * The turn writes into the body as chunks are made (`sseWriter`): one stream
 * between the engine and the socket, and no promise per chunk. There is no
 * backpressure to honour: a model cannot be paused mid-answer, and an answer is
 * small enough to queue whole for a slow reader.
 */
import type { UIMessageChunk } from "ai";
import { announcesEnd, bodyEnded } from "@/lib/http/body_end.ts";

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

/** Options of `sseWriter`. */
export interface SseOptions {
  /** Silence after which a comment line is sent (default 15 s). */
  heartbeatMs?: number;
  /** The reader went away before `close`. */
  onCancel?: (reason: unknown) => void;
}

/** A response body that chunks are written into. */
export interface SseWriter {
  readonly body: ReadableStream<Uint8Array>;
  /** Sends one chunk; a no-op once the reader went away. */
  send(chunk: UIMessageChunk): void;
  /** Sends one chunk given as its JSON (`JSON.stringify(chunk)`), for a caller that has it. */
  sendJson(json: string): void;
  /** Sends chunks given as their JSON in one write: one read for the client, one syscall. */
  sendJsonAll(jsons: readonly string[]): void;
  /** Sends `data: [DONE]` and ends the body. */
  close(): void;
  /** Whether the reader is still there. */
  readonly open: boolean;
}

/** An SSE body to write chunks into, with its heartbeat. */
export function sseWriter(options: SseOptions = {}): SseWriter {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let open = true;
  // When the last bytes went out. Chunks only move this mark; the one timer reads it when it
  // fires, since re-arming a timer per chunk costs more than encoding the chunk. Date.now, not
  // performance.now: a V8 builtin instead of an op call, and ms are enough for a heartbeat.
  let lastSentAt = Date.now();
  const stop = () => {
    open = false;
    clearTimeout(timer);
  };
  const arm = (ms: number) => {
    timer = setTimeout(() => {
      const silent = Date.now() - lastSentAt;
      if (silent < heartbeatMs) return arm(Math.max(1, heartbeatMs - silent));
      write(HEARTBEAT);
      if (open) arm(heartbeatMs);
    }, ms);
  };
  const write = (bytes: Uint8Array) => {
    if (!open) return;
    try {
      controller.enqueue(bytes);
      lastSentAt = Date.now();
    } catch {
      // The body was cancelled between our check and the write.
      stop();
      bodyEnded(body, "cancelled");
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      arm(heartbeatMs);
    },
    cancel(reason) {
      if (!open) return;
      stop();
      bodyEnded(body, "cancelled");
      options.onCancel?.(reason);
    },
  });
  announcesEnd(body);
  return {
    body,
    get open() {
      return open;
    },
    send(chunk) {
      write(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
    },
    sendJson(json) {
      write(encoder.encode(`data: ${json}\n\n`));
    },
    sendJsonAll(jsons) {
      if (jsons.length) write(encoder.encode(`data: ${jsons.join("\n\ndata: ")}\n\n`));
    },
    close() {
      if (!open) return;
      write(DONE);
      if (!open) return;
      stop();
      try {
        controller.close();
        bodyEnded(body, "complete");
      } catch {
        // The response was dropped before it was sent (the request went away first).
        bodyEnded(body, "cancelled");
      }
    },
  };
}

/** SSE bytes of the chunks of `chunks`, ending with `data: [DONE]`; cancelling it cancels the source. */
export function toSseBytes(
  chunks: ReadableStream<UIMessageChunk>,
  options: { heartbeatMs?: number } = {},
): ReadableStream<Uint8Array> {
  const reader = chunks.getReader();
  const sse = sseWriter({ ...options, onCancel: (reason) => reader.cancel(reason) });
  (async () => {
    try {
      while (sse.open) {
        const { done, value } = await reader.read();
        if (done) break;
        sse.send(value);
      }
    } finally {
      sse.close();
    }
  })();
  return sse.body;
}
