/**
 * Encodes UI message chunks as Server-Sent Events, the wire format of the AI
 * SDK's UI message stream protocol, with a comment line as heartbeat after 15 s
 * of silence so proxies keep the connection open during long tool calls.
 */
import type { UIMessageChunk } from "ai";

const encoder = new TextEncoder();

/** Response headers of a UI message stream. */
export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
};

/** Turns chunks into SSE bytes, ending with `data: [DONE]`. */
export function toSseBytes(
  chunks: ReadableStream<UIMessageChunk>,
  { heartbeatMs = 15_000 }: { heartbeatMs?: number } = {},
): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reader: ReadableStreamDefaultReader<UIMessageChunk>;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      reader = chunks.getReader();
      const beat = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          try {
            controller.enqueue(encoder.encode(": keep-alive\n\n"));
            beat();
          } catch {
            // The stream closed between the timer and the beat.
          }
        }, heartbeatMs);
      };
      beat();
      (async () => {
        try {
          while (true) {
            const { done, value } = await reader.read();
            if (done) break;
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
            beat();
          }
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
        } catch (error) {
          try {
            controller.error(error);
          } catch {
            // Already cancelled by the client.
          }
        } finally {
          clearTimeout(timer);
        }
      })();
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
}
