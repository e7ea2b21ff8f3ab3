/**
 * The model registry: the catalog with availability from the environment, and the
 * AI SDK language model for a catalog id, wired through the routed, recording fetch.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { buildCatalog, OFFLINE_MODEL_ID } from "./catalog.ts";
import { resolveModelDeadlines } from "./deadlines.ts";
import { createRoutedFetch } from "./gateway_fetch.ts";
import type { LocalModelOptions } from "./local_model.ts";
import { recordOfflineUsage } from "./offline_usage.ts";
import { isSdkFamily, loadProviderSdks, providerSdk, type SdkFamily } from "./provider_sdks.ts";
import { gatewayBaseUrl, providerConfig, PROVIDERS } from "./providers.ts";
import type {
  Env,
  GetModelOptions,
  ModelDeadlines,
  ModelInfo,
  ModelRegistry,
  ProviderId,
  ProviderStatus,
  UsageRecorder,
} from "./types.ts";

/** Thrown by {@linkcode ModelRegistry.get} for an unknown or unconfigured model. */
export class ModelUnavailableError extends Error {
  /** Error code for the JSON error body. */
  readonly code = "model_unavailable";
  /** "unknown": no such catalog id; "unavailable": its provider is not configured. */
  readonly reason: "unknown" | "unavailable";
  readonly modelId: string;

  constructor(modelId: string, reason: "unknown" | "unavailable", message: string) {
    super(message);
    this.name = "ModelUnavailableError";
    this.modelId = modelId;
    this.reason = reason;
  }
}

/** Options of {@linkcode createModelRegistry}. */
export interface ModelRegistryOptions {
  /** Environment, e.g. `Deno.env.toObject()`. */
  env: Env;
  /** The fetch providers use (tests pass one; default global fetch). */
  fetch?: typeof fetch;
  /** Where every upstream call is recorded. */
  recorder?: UsageRecorder;
  /** Epoch milliseconds, for latencies and record times (default `Date.now`). */
  clock?: () => number;
  /** Options of the offline model (e.g. `delayMs` for demos). */
  local?: LocalModelOptions;
  /**
   * Deadlines of every upstream call (`config.modelDeadlines`); a missing one takes its
   * default from `DEFAULT_MODEL_DEADLINES`. An expired deadline aborts the request and
   * fails the call with a `ModelDeadlineError`.
   */
  deadlines?: Partial<ModelDeadlines>;
}

/**
 * Builds the registry for an environment.
 *
 * Env read: OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_API ("responses" | "chat"),
 * GOOGLE_GENERATIVE_AI_API_KEY, GOOGLE_BASE_URL, CEREBRAS_API_KEY, CEREBRAS_BASE_URL,
 * OPENROUTER_API_KEY, OPENROUTER_BASE_URL, CLOUDFLARE_ACCOUNT_ID, CLOUDFLARE_API_TOKEN,
 * CLOUDFLARE_BASE_URL, LOCAL_OPENAI_BASE_URL, LOCAL_OPENAI_API_KEY, LOCAL_OPENAI_MODEL,
 * AI_GATEWAY_URL, AI_GATEWAY_TOKEN.
 *
 * AI_GATEWAY_URL is a Cloudflare AI Gateway base, `https://gateway.ai.cloudflare.com/v1/<account>/<gateway>`;
 * calls then go to `<gateway>/openai`, `/google-ai-studio/v1beta`, `/cerebras`, `/openrouter` and
 * `/workers-ai/v1` (the local endpoint always goes direct). AI_GATEWAY_TOKEN, for an
 * authenticated gateway, is sent as `cf-aig-authorization` to the gateway only.
 *
 * @example
 * ```ts
 * const registry = createModelRegistry({
 *   env: Deno.env.toObject(),
 *   recorder,
 *   deadlines: { firstByteMs: 20_000, idleMs: 30_000 },
 * });
 * await registry.ready(); // the provider packages of the configured providers
 * const model = registry.get(registry.defaultModelId());
 * ```
 */
export function createModelRegistry(options: ModelRegistryOptions): ModelRegistry {
  const env = { ...options.env };
  const catalog = buildCatalog(env);
  const configs = new Map(PROVIDERS.map((p) => [p, providerConfig(p, env)]));
  const isAvailable = (m: ModelInfo) => configs.get(m.provider)?.configured ?? false;
  const context: BuildContext = {
    options,
    env,
    configs,
    deadlines: resolveModelDeadlines(options.deadlines),
  };

  const built = new Map<string, LanguageModelV4>();
  // The provider packages get() can need: those of the configured providers' models.
  const families = new Set<SdkFamily>();
  for (const m of catalog) if (isAvailable(m) && isSdkFamily(m.family)) families.add(m.family);

  return {
    ready: () => loadProviderSdks(families),

    list() {
      return catalog.map((m) => ({
        ...m,
        capabilities: [...m.capabilities],
        pricing: { ...m.pricing },
        available: isAvailable(m),
      }));
    },

    defaultModelId() {
      return catalog.find((m) => m.family !== "offline" && isAvailable(m))?.id ?? OFFLINE_MODEL_ID;
    },

    get(id, getOptions = {}) {
      const info = catalog.find((m) => m.id === id);
      if (!info) throw unknownModel(id, catalog);
      if (!isAvailable(info)) throw unavailableModel(info, configs);
      // Models hold no per-call state (routes are collected per turn through async context),
      // so each is built once instead of a provider, a routed fetch and a model per turn.
      const key = `${id}\u0000${getOptions.openaiApi ?? ""}`;
      let model = built.get(key);
      if (!model) built.set(key, model = buildModel(info, getOptions, context));
      return model;
    },

    providerStatus() {
      const status = {} as Record<ProviderId, ProviderStatus>;
      for (const [provider, config] of configs) {
        status[provider] = config.configured ? "configured" : "missing";
      }
      return status;
    },
  };
}

type ProviderConfig = ReturnType<typeof providerConfig>;

/** What building a model reads: the registry's options, env, provider configs, deadlines. */
interface BuildContext {
  options: ModelRegistryOptions;
  env: Env;
  configs: Map<ProviderId, ProviderConfig>;
  deadlines: ModelDeadlines;
}

function unknownModel(id: string, catalog: readonly ModelInfo[]): ModelUnavailableError {
  return new ModelUnavailableError(
    id,
    "unknown",
    `Unknown model "${id}": pick one of ${catalog.map((m) => `"${m.id}"`).join(", ")}`,
  );
}

function unavailableModel(
  info: ModelInfo,
  configs: Map<ProviderId, ProviderConfig>,
): ModelUnavailableError {
  const requires = configs.get(info.provider)?.requires ?? [];
  return new ModelUnavailableError(
    info.id,
    "unavailable",
    `Model "${info.id}" is not available: set ${
      requires.join(" and ")
    } to enable provider "${info.provider}"`,
  );
}

/** The AI SDK model for a catalog entry: the offline model, or a provider's over a routed fetch. */
function buildModel(
  info: ModelInfo,
  getOptions: GetModelOptions,
  context: BuildContext,
): LanguageModelV4 {
  const { options, env } = context;
  if (info.family === "offline") {
    return recordOfflineUsage(providerSdk("offline")(options.local), {
      modelId: info.id,
      recorder: options.recorder,
      clock: options.clock,
    });
  }
  const config = context.configs.get(info.provider)!;
  const routed = routedFetchFor(info, config, context);
  switch (info.family) {
    case "openai": {
      const openai = providerSdk("openai")({
        apiKey: config.apiKey,
        baseURL: config.directBaseUrl,
        fetch: routed,
      });
      const api = getOptions.openaiApi ??
        (env.OPENAI_API?.trim() === "chat" ? "chat" : "responses");
      return api === "chat" ? openai.chat(info.providerModelId) : openai(info.providerModelId);
    }
    case "google":
      return providerSdk("google")({
        apiKey: config.apiKey,
        baseURL: config.directBaseUrl,
        fetch: routed,
      })(info.providerModelId);
    case "openai-compatible":
      return providerSdk("openai-compatible")({
        name: info.provider,
        baseURL: config.directBaseUrl,
        // Local servers usually need no key; the SDK then sends no Authorization header.
        apiKey: config.apiKey,
        fetch: routed,
        includeUsage: true,
      }).chatModel(info.providerModelId);
  }
}

/** The fetch a provider's model calls through: gateway or direct, deadlines, usage recorded. */
function routedFetchFor(
  info: ModelInfo,
  config: ProviderConfig,
  { options, env, deadlines }: BuildContext,
): typeof fetch {
  const gatewayToken = env.AI_GATEWAY_TOKEN?.trim();
  return createRoutedFetch({
    gatewayBaseUrl: gatewayBaseUrl(config, env),
    directBaseUrl: config.directBaseUrl,
    family: info.family,
    provider: info.provider,
    modelId: info.id,
    pricing: info.pricing,
    gatewayHeaders: gatewayToken ? { "cf-aig-authorization": `Bearer ${gatewayToken}` } : undefined,
    fetch: options.fetch,
    recorder: options.recorder,
    clock: options.clock,
    deadlines,
  });
}
