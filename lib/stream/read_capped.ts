/**
 * Reads a body (a request's or a response's, on the server or in the browser) up to a
 * byte cap, counting the bytes as they stream in (a `Content-Length` header is never
 * trusted) and cancelling the stream once the cap is passed, so an endless or huge body
 * costs at most `maxBytes` of memory.
 */

/** The bytes read and whether the body went past the cap. */
export interface CappedBody {
  bytes: Uint8Array<ArrayBuffer>;
  truncated: boolean;
}

/** Reads at most `maxBytes` of `body`; `truncated` tells that more was sent. */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<CappedBody> {
  if (!body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}
