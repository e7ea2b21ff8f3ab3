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
 * - the decision is taken on the status line and headers only: once the response is
 *   handed to the adapter, a failure while reading its body surfaces to the caller.
 *
 * Tokens: the response body is observed while the adapter reads it (no extra copy is
 * buffered for streams). Usage is parsed from SSE `data:` lines or a JSON body in the
 * shapes of the three families: OpenAI Chat / OpenAI-compatible (`usage.prompt_tokens`,
 * `usage.completion_tokens`), OpenAI Responses (`response.usage.input_tokens`,
 * `output_tokens`) and Gemini (`usageMetadata.promptTokenCount`, `candidatesTokenCount`
 * + `thoughtsTokenCount`). The record is written when the body ends, fails or is cancelled.
 */
import { reportRoute } from "./call_routes.ts";
import { costUsd } from "./catalog.ts";
import type {
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
}

/** Cap on a JSON (non-streamed) body kept for usage parsing. */
const MAX_JSON_BODY = 4 * 1024 * 1024;

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
  const baseFetch = options.fetch ?? globalThis.fetch;
  const clock = options.clock ?? Date.now;
  const provider = options.provider ?? defaultProvider(options.family);
  const directBase = options.directBaseUrl.replace(/\/+$/, "");
  const gatewayBase = options.gatewayBaseUrl?.replace(/\/+$/, "");

  const record = (call: Omit<UpstreamCall, "family" | "provider" | "model" | "costUsd">) => {
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

  /** Sends one attempt; records it when it fails before a response. */
  const send = async (
    url: string,
    init: RequestInit | undefined,
    route: UpstreamRoute,
  ): Promise<{ response: Response; start: number }> => {
    const start = clock();
    try {
      const response = await baseFetch(url, init);
      return { response, start };
    } catch (error) {
      record({
        route,
        status: 0,
        ttfbMs: null,
        totalMs: clock() - start,
        outcome: isAbort(error, init?.signal) ? "aborted" : "error",
        inputTokens: null,
        outputTokens: null,
        at: start,
      });
      throw error;
    }
  };

  /** Wraps the body so the record is written when the adapter has read it. */
  const observe = (response: Response, start: number, route: UpstreamRoute): Response => {
    const headersAt = clock();
    const nullBody = response.body === null || [101, 204, 205, 304].includes(response.status);
    if (nullBody) {
      record({
        route,
        status: response.status,
        ttfbMs: headersAt - start,
        totalMs: headersAt - start,
        outcome: "complete",
        inputTokens: null,
        outputTokens: null,
        at: start,
      });
      return response;
    }
    const scanner = new UsageScanner(response.headers.get("content-type") ?? "");
    const reader = response.body!.getReader();
    let firstByteAt: number | null = null;
    let finished = false;
    const finish = (outcome: UpstreamCall["outcome"]) => {
      if (finished) return;
      finished = true;
      scanner.end();
      const end = clock();
      record({
        route,
        status: response.status,
        ttfbMs: (firstByteAt ?? end) - start,
        totalMs: end - start,
        outcome,
        inputTokens: scanner.inputTokens,
        outputTokens: scanner.outputTokens,
        at: start,
      });
    };
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          finish(isAbort(error) ? "aborted" : "error");
          controller.error(error);
          return;
        }
        if (chunk.done) {
          finish("complete");
          controller.close();
          return;
        }
        firstByteAt ??= clock();
        scanner.push(chunk.value);
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        finish("aborted");
        return reader.cancel(reason);
      },
    }, { highWaterMark: 0 });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  return async function routedFetch(
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> {
    const { url, requestInit } = await normalize(input, init);
    const gatewayUrl = gatewayBase && isUnder(url, directBase)
      ? gatewayBase + url.slice(directBase.length)
      : undefined;

    if (gatewayUrl === undefined) {
      const { response, start } = await send(url, requestInit, "direct");
      reportRoute("direct");
      return observe(response, start, "direct");
    }

    const gatewayInit = withHeaders(requestInit, options.gatewayHeaders);
    // A streamed request body can be sent once only, so such a call is never repeated.
    const repeatable = !(requestInit?.body instanceof ReadableStream);
    let gatewayError: unknown;
    try {
      const { response, start } = await send(gatewayUrl, gatewayInit, "gateway");
      if (response.status < 500 || !repeatable) {
        reportRoute("gateway");
        return observe(response, start, "gateway");
      }
      await response.body?.cancel().catch(() => {});
      const end = clock();
      record({
        route: "gateway",
        status: response.status,
        ttfbMs: end - start,
        totalMs: end - start,
        outcome: "error",
        inputTokens: null,
        outputTokens: null,
        at: start,
      });
    } catch (error) {
      if (isAbort(error, requestInit?.signal) || !repeatable) throw error;
      gatewayError = error;
    }
    if (requestInit?.signal?.aborted) throw requestInit.signal.reason ?? gatewayError;
    const { response, start } = await send(url, requestInit, "direct-after-gateway-error");
    reportRoute("direct-after-gateway-error");
    return observe(response, start, "direct-after-gateway-error");
  };
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

/** Incremental usage parser over a response body (SSE or JSON). */
class UsageScanner {
  inputTokens: number | null = null;
  outputTokens: number | null = null;
  #decoder = new TextDecoder();
  #json: boolean;
  #buffer = "";
  #overflow = false;

  constructor(contentType: string) {
    this.#json = contentType.includes("json");
  }

  push(bytes: Uint8Array) {
    const text = this.#decoder.decode(bytes, { stream: true });
    if (this.#json) {
      if (this.#buffer.length + text.length > MAX_JSON_BODY) this.#overflow = true;
      else this.#buffer += text;
      return;
    }
    this.#buffer += text;
    let newline: number;
    while ((newline = this.#buffer.indexOf("\n")) >= 0) {
      this.#line(this.#buffer.slice(0, newline));
      this.#buffer = this.#buffer.slice(newline + 1);
    }
  }

  end() {
    const rest = this.#buffer + this.#decoder.decode();
    this.#buffer = "";
    if (this.#json) {
      if (!this.#overflow) this.#parse(rest);
    } else if (rest) {
      this.#line(rest);
    }
  }

  #line(line: string) {
    if (!line.startsWith("data:") || !/usage/i.test(line)) return;
    // OpenAI Chat sends `"usage":null` on every chunk but the last: no tokens to read there,
    // and parsing each chunk a second time (the adapter parses it too) costs more than this.
    if (!/usage/i.test(line.replaceAll('"usage":null', ""))) return;
    this.#parse(line.slice(5).trim());
  }

  #parse(text: string) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    const usage = extractUsage(data);
    if (usage.input !== null) this.inputTokens = usage.input;
    if (usage.output !== null) this.outputTokens = usage.output;
  }
}

type Json = Record<string, unknown>;

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function obj(value: unknown): Json | null {
  return value !== null && typeof value === "object" ? value as Json : null;
}

/** Reads token counts from one event or body in any of the three families' shapes. */
export function extractUsage(data: unknown): { input: number | null; output: number | null } {
  const root = obj(data);
  if (!root) return { input: null, output: null };
  // Gemini: usageMetadata on every chunk, cumulative.
  const meta = obj(root.usageMetadata);
  if (meta) {
    const candidates = num(meta.candidatesTokenCount);
    const thoughts = num(meta.thoughtsTokenCount);
    return {
      input: num(meta.promptTokenCount),
      output: candidates === null && thoughts === null ? null : (candidates ?? 0) + (thoughts ?? 0),
    };
  }
  // OpenAI Responses: `response.completed` / `response.failed` carry response.usage.
  const usage = obj(root.usage) ?? obj(obj(root.response)?.usage);
  if (!usage) return { input: null, output: null };
  return {
    input: num(usage.prompt_tokens) ?? num(usage.input_tokens),
    output: num(usage.completion_tokens) ?? num(usage.output_tokens),
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
