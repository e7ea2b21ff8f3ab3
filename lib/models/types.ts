/**
 * Shared types of the model layer: the catalog entry, the registry, and the
 * usage record of one upstream HTTP call. Everything else in lib/models/ is
 * reached through registry.ts, catalog.ts, gateway_fetch.ts and local_model.ts.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { LocalizedText } from "@/lib/i18n/localized.ts";
import type { Pricing } from "@/lib/protocol/usage.ts";

/** The API family a model speaks; decides the adapter and how usage is parsed. */
export type ModelFamily = "openai" | "google" | "openai-compatible" | "offline";

/** Who serves the model; one provider has one key / base URL configuration. */
export type ProviderId =
  | "openai"
  | "google"
  | "cerebras"
  | "openrouter"
  | "cloudflare"
  | "local-endpoint"
  | "offline";

/** What a model can do, for the model picker and the chat turn. */
export type ModelCapability = "tools" | "reasoning" | "vision";

/** One entry of the model catalog (`GET /api/models`). */
export interface ModelInfo {
  /** Stable catalog id, e.g. "openai/gpt-5-mini" or "local". */
  id: string;
  /** Human label shown in the model picker: one string, or one per language. */
  label: LocalizedText;
  family: ModelFamily;
  provider: ProviderId;
  /** The id the provider's API expects, e.g. "gpt-5-mini". */
  providerModelId: string;
  capabilities: ModelCapability[];
  /** Context window in tokens. */
  contextWindow: number;
  /** Public list prices in US dollars per million tokens. */
  pricing: Pricing;
}

/** A catalog entry together with whether its provider is configured. */
export type ModelListing = ModelInfo & { available: boolean };

/** Which way an upstream call went. */
export type UpstreamRoute = "gateway" | "direct" | "direct-after-gateway-error";

/**
 * One upstream HTTP call (one attempt: a gateway attempt that failed and its
 * direct retry are two records).
 */
export interface UpstreamCall {
  family: ModelFamily;
  provider: ProviderId;
  /** Catalog model id (e.g. "cerebras/gpt-oss-120b"). */
  model: string;
  route: UpstreamRoute;
  /** HTTP status, or 0 when the request failed before any response (network error, abort). */
  status: number;
  /** Milliseconds from sending the request to the first body byte (to the headers when the
   * body is empty); null when no response arrived. */
  ttfbMs: number | null;
  /** Milliseconds from sending the request until the body was fully read, failed or was
   * cancelled (or until the request failed). */
  totalMs: number;
  /** How the call ended: body fully read, cancelled / aborted by the caller, or failed. */
  outcome: "complete" | "aborted" | "error";
  /** Token counts parsed from the response (SSE usage fields or JSON body); null when the
   * response carried none (errors, aborted streams, providers that omit usage). */
  inputTokens: number | null;
  outputTokens: number | null;
  /** The tokens are estimated (about 4 characters of the request, or bytes of the streamed
   * text, a token): the call was stopped before the provider reported its usage, and its
   * tokens are billed all the same. */
  estimated?: true;
  /** Cost from the catalog's prices; null when tokens are unknown. */
  costUsd: number | null;
  /** Epoch milliseconds when the request was sent. */
  at: number;
}

/** Deadlines of every upstream model call, in milliseconds. */
export interface ModelDeadlines {
  /** From sending the request to the first byte of the response body (headers alone do not count). */
  firstByteMs: number;
  /** Longest gap between two chunks of the response body. */
  idleMs: number;
}

/** Where usage records go. The KV implementation lives in lib/store/. */
export interface UsageRecorder {
  record(call: UpstreamCall): void | Promise<void>;
}

/** Status of one provider's configuration, for `/api/health`. */
export type ProviderStatus = "configured" | "missing";

/** Which OpenAI API an OpenAI model is called through. */
export type OpenAIApi = "responses" | "chat";

/** Options of {@linkcode ModelRegistry.get}. */
export interface GetModelOptions {
  /** OpenAI models only: the Responses API (default) or Chat Completions. */
  openaiApi?: OpenAIApi;
}

/** The models the app can use, built from the environment. */
export interface ModelRegistry {
  /** The whole catalog with availability. */
  list(): ModelListing[];
  /** The first available non-offline model, else "local". */
  defaultModelId(): string;
  /**
   * Loads the AI SDK provider packages of the configured providers (lazily, off the cold
   * start; lib/models/provider_sdks.ts). `get` of a provider's model needs it resolved; the
   * offline model needs nothing.
   */
  ready(): Promise<void>;
  /** The AI SDK language model for a catalog id; throws `ModelUnavailableError`. */
  get(id: string, options?: GetModelOptions): LanguageModelV4;
  /** Whether each provider is configured. */
  providerStatus(): Record<ProviderId, ProviderStatus>;
}

/** Environment as the registry reads it (e.g. `Deno.env.toObject()`). */
export type Env = Record<string, string | undefined>;
