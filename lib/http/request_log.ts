/**
 * One structured JSON log line per request, written when the response body has been
 * fully sent (or cancelled), so a streamed chat turn's line carries its model, tokens and
 * cost. The line holds only what this module puts in it: no headers, no query string, no
 * body, no error message (error messages quote values, and values may be what a visitor
 * typed); handlers add facts through {@linkcode noteRequest}.
 *
 * @example
 * {"level":"info","msg":"request","requestId":"…","method":"POST","route":"/api/chat",
 *  "status":200,"ms":41,"durationMs":1630,"end":"complete","chat":{"model":"local",…}}
 */
import { onBodyEnd } from "./body_end.ts";
import type { App } from "./types.ts";
import type { ServerErrorEntry } from "@/lib/telemetry/server_error.ts";

/** What a chat turn adds to its request's line. */
export interface TurnFacts {
  model: string;
  /** How each upstream call went: "gateway", "direct", "direct-after-gateway-error". */
  callRoutes?: string[];
  inputTokens?: number | null;
  outputTokens?: number | null;
  costUsd?: number | null;
  /** finished, stopped, failed, step-limit, awaiting-approval. */
  outcome?: string;
}

/** Facts handlers add to their request's line. */
export interface RequestFacts {
  /** The matched route pattern (e.g. "/api/chat/:id/stream"), "static", or none. */
  route?: string;
  /** The name (never the message) of an error that failed the request or its stream. */
  error?: string;
  chat?: TurnFacts;
}

/** Options of {@linkcode withRequestLog}. */
export interface RequestLogOptions {
  /** Where each line goes (default: stdout). */
  write?: (line: string) => void;
  /** Told of each request that failed on our side (5xx, or a chat turn that failed). */
  onServerError?: (entry: ServerErrorEntry) => void;
  clock?: () => number;
}

const facts = new WeakMap<Request, RequestFacts>();

/** Adds facts to the log line of `req`; does nothing for a request the log does not follow. */
export function noteRequest(req: Request, more: RequestFacts): void {
  const known = facts.get(req);
  if (known) Object.assign(known, more);
}

/** The name of an error for logs: its class, and its code or status when it has one. */
export function errorName(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const detail = error as { code?: unknown; statusCode?: unknown };
  const code = typeof detail.code === "string" && /^[\w.-]{1,40}$/.test(detail.code)
    ? detail.code
    : typeof detail.statusCode === "number"
    ? String(detail.statusCode)
    : null;
  return code ? `${error.name}(${code})` : error.name;
}

/** Wraps `app` so each request writes one JSON line when its response has been sent. */
export function withRequestLog(app: App, options: RequestLogOptions = {}): App {
  const write = options.write ?? ((line: string) => console.log(line));
  const clock = options.clock ?? (() => performance.now());
  return async (req, info) => {
    const start = clock();
    const requestId = crypto.randomUUID();
    const known: RequestFacts = {};
    facts.set(req, known);
    let done = false;
    const finish = (status: number, ms: number, end: string) => {
      if (done) return;
      done = true;
      const line = logLine(req, requestId, known, status, ms, Math.round(clock() - start), end);
      try {
        write(JSON.stringify(line));
      } catch { /* a log sink's failure must not fail the request */ }
      if (status >= 500 || known.chat?.outcome === "failed" || known.error) {
        options.onServerError?.({
          at: Date.now(),
          requestId,
          method: req.method,
          route: known.route ?? null,
          status,
          error: known.error ?? null,
        });
      }
    };
    let res: Response;
    try {
      res = await app(req, info);
    } catch (error) {
      known.error ??= errorName(error);
      finish(500, Math.round(clock() - start), "error");
      throw error;
    }
    const ms = Math.round(clock() - start);
    res = withRequestId(res, requestId);
    if (!res.body) {
      finish(res.status, ms, "complete");
      return res;
    }
    // A streamed answer (lib/chat/sse.ts) says itself when it ends: no stream layer on it.
    if (onBodyEnd(res.body, (end) => finish(res.status, ms, end))) return res;
    return new Response(watchBody(res.body, (end) => finish(res.status, ms, end)), res);
  };
}

/** The line of one request. */
function logLine(
  req: Request,
  requestId: string,
  known: RequestFacts,
  status: number,
  ms: number,
  durationMs: number,
  end: string,
): Record<string, unknown> {
  return {
    time: new Date().toISOString(),
    level: status >= 500 ? "error" : status >= 400 ? "warn" : "info",
    msg: "request",
    requestId,
    method: req.method,
    route: known.route ?? null,
    status,
    ms,
    durationMs,
    end,
    ...(known.error ? { error: known.error } : {}),
    ...(known.chat ? { chat: known.chat } : {}),
  };
}

/** The response with `X-Request-Id`, copied when its headers are immutable. */
function withRequestId(res: Response, requestId: string): Response {
  try {
    res.headers.set("X-Request-Id", requestId);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.set("X-Request-Id", requestId);
    return copy;
  }
}

/** The same bytes, telling `onEnd` once how the body ended. */
function watchBody(
  body: ReadableStream<Uint8Array>,
  onEnd: (end: "complete" | "cancelled" | "error") => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        onEnd("error");
        controller.error(error);
        return;
      }
      if (chunk.done) {
        controller.close();
        onEnd("complete");
      } else {
        controller.enqueue(chunk.value);
      }
    },
    cancel(reason) {
      onEnd("cancelled");
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
