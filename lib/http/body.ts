/**
 * Reads a JSON request body under a size limit, streaming, so an oversized or
 * lying Content-Length cannot make the server buffer more than the limit.
 */
import { HttpError } from "./errors.ts";

/** Parses the body as JSON; 413 over `limit` bytes, 400 when it is not JSON. */
export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await req.body?.cancel();
    throw new HttpError("payload_too_large", `The body is over ${limit} bytes.`);
  }
  const type = req.headers.get("content-type") ?? "";
  if (type && !/^application\/json\b|^text\/plain\b/i.test(type)) {
    await req.body?.cancel();
    throw new HttpError("invalid_request", `Send JSON: Content-Type "${type}" is not accepted.`);
  }
  if (!req.body) throw new HttpError("invalid_request", "The body is empty: send a JSON object.");
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new HttpError("payload_too_large", `The body is over ${limit} bytes.`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.length;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError("invalid_request", "The body is not valid UTF-8.");
  }
  if (!text.trim()) {
    throw new HttpError("invalid_request", "The body is empty: send a JSON object.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError("invalid_request", "The body is not valid JSON.");
  }
}
