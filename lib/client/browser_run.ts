/**
 * Runs a browser-run agent's tool call from the visitor's browser (e.g. against
 * an API on their own machine): rebuilds the request from the descriptor and the
 * arguments, sends it with a timeout and no redirects, reads at most 1 MiB, and
 * returns `{ data }` or `{ error: { status, message } }` like the server's agent
 * tools (lib/agents/fetch_policy.ts). Loaded lazily by lib/client/chat.ts.
 */
import { readCapped } from "@/lib/stream/read_capped.ts";
import type { ToolOutputValue } from "@/lib/protocol/approval.ts";
import type { ApprovalDescriptorView } from "./approval.ts";
import { requestToSend } from "./approval_request.ts";

/** Options of {@linkcode runBrowserCall}. */
export interface BrowserRunOptions {
  fetch?: typeof fetch;
  /** Limit for the whole call, body included (default 10 s). */
  timeoutMs?: number;
  /** Largest body read (default 1 MiB). */
  maxResponseBytes?: number;
}

const MAX_ERROR_MESSAGE = 300;

/** Sends the call described by `descriptor` with `input`; never throws. */
export async function runBrowserCall(
  descriptor: ApprovalDescriptorView,
  input: Record<string, unknown>,
  { fetch: doFetch = fetch, timeoutMs = 10_000, maxResponseBytes = 1 << 20 }: BrowserRunOptions =
    {},
): Promise<ToolOutputValue> {
  const built = requestToSend(descriptor, input);
  if ("error" in built) return { error: { status: 0, message: built.error.message } };
  const { method, url, headers, body } = built.request;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await doFetch(url, {
      method,
      headers,
      body,
      signal,
      // A redirect could lead off the agent's server: refuse it rather than follow.
      redirect: "error",
      credentials: "omit",
    });
    const { bytes, truncated } = await readCapped(response.body, maxResponseBytes);
    return readResult(response, new TextDecoder().decode(bytes), truncated, maxResponseBytes);
  } catch (error) {
    if (signal.aborted) {
      return { error: { status: 0, message: `No answer within ${timeoutMs} ms.` } };
    }
    return { error: { status: 0, message: `Network error: ${(error as Error).message}` } };
  }
}

function readResult(
  response: Response,
  text: string,
  truncated: boolean,
  maxBytes: number,
): ToolOutputValue {
  const json = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(
    response.headers.get("content-type") ?? "",
  );
  let parsed: unknown = undefined;
  if (json && !truncated && text.trim()) {
    try {
      parsed = JSON.parse(text);
    } catch { /* not the JSON it claims to be: keep the text */ }
  }
  if (!response.ok) {
    const record = parsed as { message?: unknown; error?: { message?: unknown } | unknown };
    const found = record?.message ?? (record?.error as { message?: unknown })?.message ??
      record?.error;
    let message = typeof found === "string" ? found : json ? "" : text.trim();
    message ||= response.statusText || `HTTP ${response.status}`;
    if (message.length > MAX_ERROR_MESSAGE) message = `${message.slice(0, MAX_ERROR_MESSAGE)}…`;
    return { error: { status: response.status, message } };
  }
  if (json && truncated) {
    return {
      error: {
        status: response.status,
        message: `The JSON answer is larger than ${maxBytes} bytes.`,
      },
    };
  }
  if (parsed !== undefined) return { data: parsed };
  if (!text) return { data: null };
  return { data: truncated ? `${text}\n[truncated at ${maxBytes} bytes]` : text };
}
