/**
 * A `fetch` for provider adapters that routes calls through an AI gateway, falls
 * back once to the provider's own URL, and records every upstream attempt.
 *
 * Routing rules:
 * - with a gateway base URL, a request under `directBaseUrl` is sent to the same
 *   path under `gatewayBaseUrl` (Cloudflare AI Gateway layout `<gateway>/<provider>/…`);
 * - a network error or a 5xx status from the gateway repeats the call ONCE against
 *   the direct URL (route "direct-after-gateway-error");
 * - a 4xx is returned as is; the caller's abort is never retried;
 * - a gateway that sends no body byte within the first-byte deadline counts as a network
 *   error (it is repeated directly); the decision is taken before the response is handed
 *   to the adapter: once it is, a failure while reading its body (an idle stall included)
 *   surfaces to the caller, since content was already streamed.
 *
 * Deadlines (see deadlines.ts): each attempt must deliver the first byte of its response
 * body within `firstByteMs` of sending the request, and then no gap between two body
 * chunks may exceed `idleMs` while the adapter waits for one. On expiry the request is
 * aborted (its connection closes) and the call fails with a `ModelDeadlineError`.
 *
 * Tokens: the response body is observed while the adapter reads it (usage_scan.ts: the
 * usage of SSE `data:` lines or of a JSON body, in the shapes of the three families). The
 * record is written when the body ends, fails or is cancelled.
 */
import { reportRoute } from "./call_routes.ts";
import { costUsd } from "@/lib/protocol/usage.ts";
import { DEFAULT_MODEL_DEADLINES, ModelDeadlineError } from "./deadlines.ts";
import { UsageScanner } from "./usage_scan.ts";
import type {
  ModelDeadlines,
  ModelFamily,
  ModelInfo,
  ProviderId,
  UpstreamCall,
  UpstreamRoute,
  UsageRecorder,
} from "./types.ts";

/** Options of {@linkcode createRoutedFetch}. */
export interface RoutedFetchOptions {
  /** Gateway base URL for this provider (e.g. `https://gateway.ai.cloudflare.com/v1/acc/gw/openai`). */
  gatewayBaseUrl?: string;
  /** The provider's own base URL; the adapter is configured with this one. */
  directBaseUrl: string;
  family: ModelFamily;
  /** Catalog model id, recorded as `model`. */
  modelId: string;
  /** Provider recorded with each call; defaults from the family. */
  provider?: ProviderId;
  /** Prices for `costUsd`; without them the cost is null. */
  pricing?: ModelInfo["pricing"];
  /** Headers added to gateway attempts only (e.g. `cf-aig-authorization`). */
  gatewayHeaders?: Record<string, string>;
  /** The underlying fetch (default: global fetch). */
  fetch?: typeof fetch;
  recorder?: UsageRecorder;
  /** Epoch milliseconds (default `Date.now`). */
  clock?: () => number;
  /** Deadlines of each attempt (default `DEFAULT_MODEL_DEADLINES`); timed on the real clock. */
  deadlines?: ModelDeadlines;
}

/** An attempt whose response has begun: headers and the first body read (or an empty body). */
interface Opened {
  response: Response;
  /** Reader of the body, with its first read done; null for a null body. */
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
  first: ReadableStreamReadResult<Uint8Array> | null;
  /** Clock time when the request was sent. */
  start: number;
  /** Clock time of the first body byte (of the headers for a null body, of its end for an
   * empty one). */
  firstByteAt: number;
  attempt: Attempt;
}

/**
 * Builds the routed, recording fetch for one model.
 *
 * @example
 * ```ts
 * const routed = createRoutedFetch({
 *   gatewayBaseUrl: "https://gateway.ai.cloudflare.com/v1/acc/gw/cerebras",
 *   directBaseUrl: "https://api.cerebras.ai/v1",
 *   family: "openai-compatible",
 *   provider: "cerebras",
 *   modelId: "cerebras/gpt-oss-120b",
 *   recorder,
 * });
 * createOpenAICompatible({ name: "cerebras", baseURL: "https://api.cerebras.ai/v1", fetch: routed });
 * ```
 */
export function createRoutedFetch(options: RoutedFetchOptions): typeof fetch {
  const call = callContext(options);
  const directBase = options.directBaseUrl.replace(/\/+$/, "");
  const gatewayBase = options.gatewayBaseUrl?.replace(/\/+$/, "");

  return async function routedFetch(
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> {
    const { url, requestInit } = await normalize(input, init);
    const gatewayUrl = gatewayBase && isUnder(url, directBase)
      ? gatewayBase + url.slice(directBase.length)
      : undefined;
    if (gatewayUrl === undefined) return await send(call, url, requestInit, "direct");
    return await sendViaGateway(call, gatewayUrl, url, requestInit, options.gatewayHeaders);
  };
}

/** A call's record without what the model's options already say. */
type CallRecord = Omit<UpstreamCall, "family" | "provider" | "model" | "costUsd">;

/** What every attempt of one model's calls shares: the fetch, clock, deadlines, recorder. */
interface CallContext {
  baseFetch: typeof fetch;
  clock: () => number;
  deadlines: ModelDeadlines;
  firstByteExpired: () => ModelDeadlineError;
  idleExpired: () => ModelDeadlineError;
  /** Records one attempt, with its cost; a failing recorder is logged, never thrown. */
  record: (call: CallRecord) => void;
}

function callContext(options: RoutedFetchOptions): CallContext {
  const provider = options.provider ?? defaultProvider(options.family);
  const deadlines = options.deadlines ?? DEFAULT_MODEL_DEADLINES;
  const record = (call: CallRecord) => {
    const full: UpstreamCall = {
      family: options.family,
      provider,
      model: options.modelId,
      ...call,
      costUsd: options.pricing && (call.inputTokens !== null || call.outputTokens !== null)
        ? costUsd(options.pricing, call.inputTokens ?? 0, call.outputTokens ?? 0)
        : null,
    };
    try {
      Promise.resolve(options.recorder?.record(full)).catch((error) => {
        console.error("Usage recorder failed:", error);
      });
    } catch (error) {
      console.error("Usage recorder failed:", error);
    }
  };
  return {
    baseFetch: options.fetch ?? globalThis.fetch,
    clock: options.clock ?? Date.now,
    deadlines,
    firstByteExpired: () =>
      new ModelDeadlineError("first-byte", options.modelId, deadlines.firstByteMs),
    idleExpired: () => new ModelDeadlineError("idle", options.modelId, deadlines.idleMs),
    record,
  };
}

/** One attempt on `route`, handed to the adapter once its first byte is in. */
async function send(
  call: CallContext,
  url: string,
  init: RequestInit | undefined,
  route: UpstreamRoute,
): Promise<Response> {
  const opened = await open(call, url, init, route);
  reportRoute(route);
  return observe(call, opened, route, init);
}

/**
 * Sends through the gateway; a 5xx or a network error (a first-byte deadline included) is
 * recorded and the call repeated once on the direct URL, unless its body cannot be resent
 * or the caller aborted.
 */
async function sendViaGateway(
  call: CallContext,
  gatewayUrl: string,
  directUrl: string,
  requestInit: RequestInit | undefined,
  gatewayHeaders: Record<string, string> | undefined,
): Promise<Response> {
  const gatewayInit = withHeaders(requestInit, gatewayHeaders);
  // A streamed request body can be sent once only, so such a call is never repeated.
  const repeatable = !(requestInit?.body instanceof ReadableStream);
  let gatewayError: unknown;
  try {
    const opened = await open(call, gatewayUrl, gatewayInit, "gateway");
    const { response, start } = opened;
    if (response.status < 500 || !repeatable) {
      reportRoute("gateway");
      return observe(call, opened, "gateway", gatewayInit);
    }
    await opened.reader?.cancel().catch(() => {});
    opened.attempt.end();
    call.record({
      route: "gateway",
      status: response.status,
      ttfbMs: opened.firstByteAt - start,
      totalMs: call.clock() - start,
      outcome: "error",
      inputTokens: null,
      outputTokens: null,
      at: start,
    });
  } catch (error) {
    // A first-byte deadline is no abort of the caller's: it is repeated like a network error.
    if (isAbort(error, requestInit?.signal) || !repeatable) throw error;
    gatewayError = error;
  }
  if (requestInit?.signal?.aborted) throw requestInit.signal.reason ?? gatewayError;
  return await send(call, directUrl, requestInit, "direct-after-gateway-error");
}

/**
 * Sends one attempt and waits for the first byte of its body (or its end), within the
 * first-byte deadline; records the attempt when that fails.
 */
async function open(
  call: CallContext,
  url: string,
  init: RequestInit | undefined,
  route: UpstreamRoute,
): Promise<Opened> {
  const { clock } = call;
  const start = clock();
  const attempt = new Attempt(init?.signal);
  attempt.arm(call.deadlines.firstByteMs, call.firstByteExpired);
  let response: Response | undefined;
  try {
    response = await call.baseFetch(url, { ...init, signal: attempt.signal });
    const nullBody = response.body === null || NULL_BODY_STATUSES.includes(response.status);
    const reader = nullBody ? null : response.body!.getReader();
    const first = reader ? await reader.read() : null;
    if (attempt.expired) throw attempt.expired;
    attempt.disarm();
    return { response, reader, first, start, firstByteAt: clock(), attempt };
  } catch (error) {
    attempt.end();
    call.record({
      route,
      status: response?.status ?? 0,
      ttfbMs: null,
      totalMs: clock() - start,
      outcome: attempt.outcomeOf(error),
      inputTokens: null,
      outputTokens: null,
      at: start,
    });
    throw attempt.expired ?? error;
  }
}

/** Hands the response to the adapter; the record is written when the adapter has read it. */
function observe(
  call: CallContext,
  opened: Opened,
  route: UpstreamRoute,
  init?: RequestInit,
): Response {
  const { response, reader, attempt } = opened;
  const finish = finisher(call, opened, route, init);
  if (reader === null) {
    finish.end("complete");
    return response;
  }
  let pending = opened.first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = pending;
      pending = null;
      if (chunk === null) {
        // The idle deadline runs only while the adapter waits for the provider.
        attempt.arm(call.deadlines.idleMs, call.idleExpired);
        try {
          chunk = await reader.read();
          if (attempt.expired) throw attempt.expired;
        } catch (error) {
          finish.end(attempt.outcomeOf(error));
          controller.error(attempt.expired ?? error);
          return;
        }
        attempt.disarm();
      }
      if (chunk.done) {
        finish.end("complete");
        controller.close();
        return;
      }
      finish.scanner.push(chunk.value);
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      finish.end("aborted");
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The usage scanner of an observed response and `end(outcome)`, which writes its record once
 * (the body ended, failed or was cancelled).
 */
function finisher(
  call: CallContext,
  opened: Opened,
  route: UpstreamRoute,
  init?: RequestInit,
): { scanner: UsageScanner; end: (outcome: UpstreamCall["outcome"]) => void } {
  const { response, start, firstByteAt, attempt } = opened;
  // Only the request's length is kept for the estimate, not its body: the turn lasts
  // seconds, and a body held that long is copied by every young-generation collection.
  const requestChars = typeof init?.body === "string" ? init.body.length : 0;
  const scanner = new UsageScanner(response.headers.get("content-type") ?? "");
  let finished = false;
  const end = (outcome: UpstreamCall["outcome"]) => {
    if (finished) return;
    finished = true;
    attempt.end();
    scanner.end();
    // A stopped answer reports no usage, yet its tokens are billed: estimate them.
    const estimate = outcome === "aborted" && scanner.inputTokens === null &&
      scanner.outputTokens === null;
    call.record({
      route,
      status: response.status,
      ttfbMs: firstByteAt - start,
      totalMs: call.clock() - start,
      outcome,
      inputTokens: estimate ? Math.ceil(requestChars / 4) : scanner.inputTokens,
      outputTokens: estimate ? Math.ceil(scanner.streamedBytes / 4) : scanner.outputTokens,
      ...(estimate ? { estimated: true as const } : {}),
      at: start,
    });
  };
  return { scanner, end };
}

/** Statuses whose response has no body. */
const NULL_BODY_STATUSES = [101, 204, 205, 304];

/**
 * One upstream attempt: its own abort controller, which follows the caller's signal and
 * which a deadline timer aborts with a `ModelDeadlineError`.
 */
class Attempt {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | null | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed deadline expires (performance.now() ms); 0 while disarmed. */
  #due = 0;
  /** When the timer fires; an earlier deadline than that needs a new timer. */
  #wakeAt = 0;
  #error: (() => ModelDeadlineError) | null = null;
  /** The deadline that expired, if one did. */
  expired: ModelDeadlineError | null = null;

  constructor(caller: AbortSignal | null | undefined) {
    this.#caller = caller;
    if (caller?.aborted) this.#controller.abort(caller.reason);
    else caller?.addEventListener("abort", this.#onCallerAbort, { once: true });
  }

  /** The signal the request is sent with. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Aborts the request with `error()` after `ms` unless disarmed first. Armed and disarmed
   * around every chunk of a stream, so it moves a due time instead of a timer: one timer
   * per attempt, re-set only when it fires early (a setTimeout and a clearTimeout per chunk
   * were a visible part of a streamed answer's CPU).
   */
  arm(ms: number, error: () => ModelDeadlineError): void {
    this.#due = performance.now() + ms;
    this.#error = error;
    if (this.#timer !== undefined && this.#wakeAt <= this.#due) return;
    clearTimeout(this.#timer);
    this.#wake(ms);
  }

  disarm(): void {
    this.#due = 0;
  }

  #wake(ms: number): void {
    this.#wakeAt = performance.now() + ms;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#due === 0) return;
      const left = this.#due - performance.now();
      if (left > 0) return this.#wake(left);
      this.expired = this.#error!();
      this.#controller.abort(this.expired);
    }, ms);
  }

  /** The attempt is over: no timer, no listener left on the caller's signal. */
  end(): void {
    this.disarm();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#caller?.removeEventListener("abort", this.#onCallerAbort);
  }

  /** How a failure of this attempt is recorded: a deadline is an error, not an abort. */
  outcomeOf(error: unknown): UpstreamCall["outcome"] {
    return this.expired === null && isAbort(error, this.#caller) ? "aborted" : "error";
  }

  #onCallerAbort = () => this.#controller.abort(this.#caller?.reason);
}

function defaultProvider(family: ModelFamily): ProviderId {
  switch (family) {
    case "openai":
      return "openai";
    case "google":
      return "google";
    case "offline":
      return "offline";
    case "openai-compatible":
      return "local-endpoint";
  }
}

function isUnder(url: string, base: string): boolean {
  return url === base || url.startsWith(base + "/") || url.startsWith(base + "?");
}

function isAbort(error: unknown, signal?: AbortSignal | null): boolean {
  if (signal?.aborted) return true;
  return error instanceof DOMException &&
    (error.name === "AbortError" || error.name === "TimeoutError");
}

function withHeaders(
  init: RequestInit | undefined,
  extra: Record<string, string> | undefined,
): RequestInit | undefined {
  if (!extra || Object.keys(extra).length === 0) return init;
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return { ...init, headers };
}

async function normalize(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<{ url: string; requestInit: RequestInit | undefined }> {
  if (typeof input === "string") return { url: input, requestInit: init };
  if (input instanceof URL) return { url: input.href, requestInit: init };
  // A Request: copy it into a plain init so it can be sent twice.
  const body = input.body ? await input.clone().arrayBuffer() : undefined;
  return {
    url: input.url,
    requestInit: {
      method: input.method,
      headers: input.headers,
      body,
      signal: input.signal,
      ...init,
    },
  };
}

/** An in-memory {@linkcode UsageRecorder} for tests and local runs. */
export interface MemoryUsageRecorder extends UsageRecorder {
  readonly calls: UpstreamCall[];
}

/**
 * Creates a recorder that keeps calls in an array.
 *
 * @example
 * ```ts
 * const recorder = createMemoryUsageRecorder();
 * createModelRegistry({ env, recorder });
 * recorder.calls; // UpstreamCall[]
 * ```
 */
export function createMemoryUsageRecorder(): MemoryUsageRecorder {
  const calls: UpstreamCall[] = [];
  return {
    calls,
    record(call) {
      calls.push(call);
    },
  };
}
