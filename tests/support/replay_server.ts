/**
 * A loopback HTTP server that replays recorded provider wire streams from
 * `tests/fixtures/providers/` (see its SOURCES.md), for testing the real
 * provider adapters without a network.
 *
 * Framing: `*.chunks.txt` lines become `data: <line>\n\n` events, followed by
 * `data: [DONE]\n\n` except for Gemini fixtures (`google-*`, `issue-10781.*`);
 * `*.bin` / `*.sse` are already framed and are sent event by event; `*.json` is
 * sent whole as an error body with the step's status.
 *
 * @example
 * ```ts
 * const server = startReplayServer([{ fixture: "openai-text.chunks.txt" }]);
 * const res = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body: "{}" });
 * await server.close();
 * ```
 */

/** How one request is answered. */
export interface ReplayStep {
  /** Fixture file name in the fixtures dir. */
  fixture?: string;
  /** An inline body instead of a fixture; an array is sent as separate chunks. */
  body?: string | string[];
  /** HTTP status (default 200). */
  status?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Override framing of a `*.chunks.txt` fixture: OpenAI-style with `[DONE]`, or Gemini without. */
  framing?: "openai" | "google";
  /** Delay before each chunk after the first, in ms. */
  delayMs?: number;
  /** Drop the connection (no proper end of body) after sending this many chunks. */
  failAfterChunks?: number;
  /**
   * Delay before sending the status line and headers, in ms; `close()` cuts it short. A
   * client that closes the connection meanwhile is seen as a "client-closed" close with no
   * chunk sent, but only when its request was small: Deno.serve does not notice the close
   * of a connection whose request body was over about 1 KB before it answers. For "never
   * answers" use tests/support/silent_server.ts, which sees every close.
   */
  headersDelayMs?: number;
  /**
   * Stall after sending this many chunks (0: headers, then no body): send nothing more,
   * without ending the body, until the client closes the connection.
   */
  stallAfterChunks?: number;
}

/** A request the server received. */
export interface RecordedRequest {
  /** 0-based order of arrival. */
  index: number;
  method: string;
  /** Path and query, e.g. "/v1/models/x:streamGenerateContent?alt=sse". */
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: unknown;
  /** `performance.now()` when the request arrived. */
  at: number;
}

/** How a response ended, seen from the server. */
export interface ResponseClose {
  /** Index of the request this response answered. */
  index: number;
  /**
   * "client-closed": the client aborted / closed the connection before the body ended;
   * "completed": the whole body was sent; "dropped": the server dropped it (failAfterChunks).
   */
  reason: "client-closed" | "completed" | "dropped";
  /** `performance.now()` when it happened. */
  at: number;
  /** How many chunks had been sent. */
  chunksSent: number;
}

/** A running replay server. */
export interface ReplayServer {
  /** Base URL, e.g. "http://127.0.0.1:53211" (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  closes: ResponseClose[];
  /** Resolves when a close for request `index` has been seen. */
  waitForClose(index: number, timeoutMs?: number): Promise<ResponseClose>;
  close(): Promise<void>;
}

/** The script: steps in order (the last one repeats), or a function of the request. */
export type ReplayScript = ReplayStep[] | ((request: RecordedRequest) => ReplayStep);

/** The fixtures directory: `FIXTURES_DIR`, else `tests/fixtures/providers/` in this repository. */
export function fixturesDir(): URL {
  let fromEnv: string | undefined;
  try {
    fromEnv = Deno.env.get("FIXTURES_DIR");
  } catch {
    fromEnv = undefined;
  }
  if (fromEnv) {
    const path = fromEnv.endsWith("/") ? fromEnv : fromEnv + "/";
    return new URL(`file://${path.startsWith("/") ? "" : Deno.cwd() + "/"}${path}`);
  }
  return new URL("../fixtures/providers/", import.meta.url);
}

/** Reads a fixture and splits it into the chunks the server sends. */
export async function fixtureChunks(
  name: string,
  framing?: "openai" | "google",
): Promise<{ chunks: string[]; contentType: string }> {
  if (name.includes("/") || name.includes("\\")) {
    throw new Error(`Fixture name "${name}" must be a bare file name inside ${fixturesDir().href}`);
  }
  const text = await Deno.readTextFile(new URL(name, fixturesDir()));
  if (name.endsWith(".json")) return { chunks: [text], contentType: "application/json" };
  if (name.endsWith(".chunks.txt")) {
    const google = framing ? framing === "google" : /^(google-|issue-10781\.)/.test(name);
    const chunks = text.split("\n").filter((line) => line.trim()).map((line) =>
      `data: ${line}\n\n`
    );
    if (!google) chunks.push("data: [DONE]\n\n");
    return { chunks, contentType: "text/event-stream" };
  }
  // *.bin / *.sse: already framed; send one event per chunk.
  const events = text.split("\n\n").filter((event) => event.trim()).map((event) => event + "\n\n");
  return { chunks: events, contentType: "text/event-stream" };
}

/**
 * Starts the server on 127.0.0.1 with a free port.
 */
export function startReplayServer(script: ReplayScript): ReplayServer {
  const requests: RecordedRequest[] = [];
  const closes: ResponseClose[] = [];
  const waiters: Array<{ index: number; resolve: (close: ResponseClose) => void }> = [];
  const encoder = new TextEncoder();
  // Aborted by close(): deliberate delays and stalls end instead of holding the shutdown.
  const closing = new AbortController();

  const noteClose = (close: ResponseClose) => {
    if (closes.some((c) => c.index === close.index)) return;
    closes.push(close);
    for (const waiter of waiters.filter((w) => w.index === close.index)) waiter.resolve(close);
  };

  const stepFor = (request: RecordedRequest): ReplayStep => {
    if (typeof script === "function") return script(request);
    if (script.length === 0) throw new Error("Replay script is empty: give at least one step");
    return script[Math.min(request.index, script.length - 1)];
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const raw = await req.text();
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = {
      index: requests.length,
      method: req.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(req.headers),
      body,
      at: performance.now(),
    };
    requests.push(recorded);

    let step: ReplayStep;
    let chunks: string[];
    let contentType: string;
    try {
      step = stepFor(recorded);
      if (step.fixture) {
        ({ chunks, contentType } = await fixtureChunks(step.fixture, step.framing));
      } else {
        chunks = typeof step.body === "string" ? [step.body] : step.body ?? [];
        contentType = "text/event-stream";
      }
    } catch (error) {
      return new Response(`Replay server error: ${error}`, { status: 599 });
    }
    const index = recorded.index;
    if (step.headersDelayMs) {
      await sleep(step.headersDelayMs, AbortSignal.any([req.signal, closing.signal]));
      if (req.signal.aborted) {
        noteClose({ index, reason: "client-closed", at: performance.now(), chunksSent: 0 });
        return new Response(null, { status: 499 });
      }
    }

    let sent = 0;
    let ended = false;
    const stop = new AbortController();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (ended) return;
        if (step.failAfterChunks !== undefined && sent >= step.failAfterChunks) {
          ended = true;
          noteClose({ index, reason: "dropped", at: performance.now(), chunksSent: sent });
          controller.error(new Error("Replay server dropped the connection on purpose"));
          return;
        }
        if (step.stallAfterChunks !== undefined && sent >= step.stallAfterChunks) {
          // Until the client closes the connection (cancel() below wakes this up).
          await sleep(2_147_483_647, AbortSignal.any([stop.signal, closing.signal]));
          if (!ended) {
            ended = true;
            controller.error(new Error("Replay server closed while stalling"));
          }
          return;
        }
        if (sent >= chunks.length) {
          ended = true;
          noteClose({ index, reason: "completed", at: performance.now(), chunksSent: sent });
          controller.close();
          return;
        }
        if (sent > 0 && step.delayMs) await sleep(step.delayMs, stop.signal);
        if (ended) return;
        controller.enqueue(encoder.encode(chunks[sent]));
        sent++;
      },
      cancel() {
        stop.abort();
        if (!ended) {
          ended = true;
          noteClose({ index, reason: "client-closed", at: performance.now(), chunksSent: sent });
        }
      },
    }, { highWaterMark: 0 });

    return new Response(stream, {
      status: step.status ?? 200,
      headers: { "content-type": contentType, "cache-control": "no-cache", ...step.headers },
    });
  });

  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    closes,
    waitForClose(index, timeoutMs = 2000) {
      const seen = closes.find((c) => c.index === index);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`No close seen for request ${index} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          index,
          resolve: (close) => {
            clearTimeout(timer);
            resolve(close);
          },
        });
      });
    },
    async close() {
      closing.abort();
      await server.shutdown();
    },
  };
}

/** A loopback URL on which nothing listens (connection refused). */
export function refusedUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

/** Resolves after `ms`, or at once when `signal` aborts (never leaves a timer behind). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}
