/**
 * Reads a UI message stream response (server-sent events whose `data:` lines
 * are JSON chunks, ended by `data: [DONE]`) into chunks. Comment lines
 * (heartbeats) and other fields are skipped.
 */
import type { UIMessageChunk } from "ai";

/** The stream was not the protocol (a line that is not JSON, or not a chunk). */
export class StreamFormatError extends Error {
  override name = "StreamFormatError";
}

function toChunk(data: string): UIMessageChunk {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new StreamFormatError(`Not a JSON chunk: ${data.slice(0, 80)}`);
  }
  if (
    typeof value !== "object" || value === null ||
    typeof (value as { type?: unknown }).type !== "string"
  ) {
    throw new StreamFormatError(`Not a UI message chunk: ${data.slice(0, 80)}`);
  }
  return value as UIMessageChunk;
}

/** Yields the chunks of an SSE body until `[DONE]` or its end. */
export async function* readChunks(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<UIMessageChunk> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  // One event may carry several `data:` lines; they join with "\n" (the SSE rule).
  let data: string[] = [];
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let start = 0;
      let nl: number;
      while ((nl = buffer.indexOf("\n", start)) !== -1) {
        let line = buffer.slice(start, nl);
        start = nl + 1;
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") {
          if (data.length) {
            const payload = data.join("\n");
            data = [];
            if (payload === "[DONE]") {
              // Read to the end rather than cancel: the server closes right after, and a
              // cancelled response shows as a failed request in the browser.
              while (!(await reader.read()).done) { /* nothing follows [DONE] */ }
              return;
            }
            yield toChunk(payload);
          }
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
        }
      }
      buffer = buffer.slice(start);
    }
    // A last event without its blank line still counts.
    if (buffer.startsWith("data:")) data.push(buffer.slice(buffer.startsWith("data: ") ? 6 : 5));
    if (data.length && data.join("\n") !== "[DONE]") yield toChunk(data.join("\n"));
  } finally {
    // Stops the body when the consumer leaves early (stop, error); a no-op after its end.
    await reader.cancel().catch(() => {});
  }
}
