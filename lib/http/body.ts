/**
 * Reads request bodies (JSON, forms) under a size limit, streaming, so an
 * oversized or lying Content-Length cannot make the server buffer more than the limit.
 */
import { readCapped } from "@/lib/stream/read_capped.ts";
import { HttpError } from "./errors.ts";

/** Largest accepted HTML form body: a title or a confirm button needs far less. */
export const MAX_FORM_BYTES = 8 * 1024;

/** The body's bytes; 413 `payload_too_large` past `limit` (declared or actually sent). */
async function readLimited(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await req.body?.cancel().catch(() => {});
    throw new HttpError("payload_too_large", `The body is over ${limit} bytes.`);
  }
  let read;
  try {
    read = await readCapped(req.body, limit);
  } catch {
    throw new HttpError("invalid_request", "The body could not be read: send it again.");
  }
  if (read.truncated) throw new HttpError("payload_too_large", `The body is over ${limit} bytes.`);
  return read.bytes;
}

function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError("invalid_request", "The body is not valid UTF-8.");
  }
}

/** Parses the body as JSON; 413 over `limit` bytes, 400 when it is not JSON. */
export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  if (type && !/^application\/json\b|^text\/plain\b/i.test(type)) {
    const declared = Number(req.headers.get("content-length") ?? "0");
    await req.body?.cancel().catch(() => {});
    if (declared > limit) {
      throw new HttpError("payload_too_large", `The body is over ${limit} bytes.`);
    }
    throw new HttpError("invalid_request", `Send JSON: Content-Type "${type}" is not accepted.`);
  }
  const text = utf8(await readLimited(req, limit));
  if (!text.trim()) {
    throw new HttpError("invalid_request", "The body is empty: send a JSON object.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError("invalid_request", "The body is not valid JSON.");
  }
}

/**
 * Reads an HTML form post (urlencoded or multipart) of at most `limit` bytes;
 * 413 past it, 400 for another Content-Type or a body that is not a form.
 * An empty body without Content-Type is an empty form (a bare confirm button).
 * File fields are dropped: no form of this app uploads files.
 */
export async function readFormBody(
  req: Request,
  limit: number = MAX_FORM_BYTES,
): Promise<URLSearchParams> {
  const type = req.headers.get("content-type") ?? "";
  const urlencoded = /^application\/x-www-form-urlencoded\b/i.test(type);
  const multipart = /^multipart\/form-data\b/i.test(type);
  const bytes = await readLimited(req, limit);
  if (urlencoded || (!type && bytes.length === 0)) return new URLSearchParams(utf8(bytes));
  if (!multipart) {
    throw new HttpError(
      "invalid_request",
      `Send a form: Content-Type "${type}" is not application/x-www-form-urlencoded or multipart/form-data.`,
    );
  }
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new HttpError("invalid_request", "The body is not a valid multipart form.");
  }
  const fields = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === "string") fields.append(name, value);
  return fields;
}
