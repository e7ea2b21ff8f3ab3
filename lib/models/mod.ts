/**
 * The model layer's public API. Import from here (or the named modules).
 *
 * @example
 * ```ts
 * import { createModelRegistry } from "@/lib/models/mod.ts";
 * const registry = createModelRegistry({ env: Deno.env.toObject(), recorder });
 * const model = registry.get(registry.defaultModelId());
 * ```
 */
export type * from "./types.ts";
export {
  buildCatalog,
  CATALOG,
  costUsd,
  DEFAULT_LOCAL_OPENAI_MODEL,
  findModel,
  LOCAL_ENDPOINT_MODEL_ID,
  OFFLINE_MODEL_ID,
} from "./catalog.ts";
export {
  createModelRegistry,
  type ModelRegistryOptions,
  ModelUnavailableError,
} from "./registry.ts";
export {
  DEFAULT_MODEL_DEADLINES,
  findModelDeadlineError,
  ModelDeadlineError,
  type ModelDeadlineKind,
  resolveModelDeadlines,
} from "./deadlines.ts";
export {
  createMemoryUsageRecorder,
  createRoutedFetch,
  type MemoryUsageRecorder,
  type RoutedFetchOptions,
} from "./gateway_fetch.ts";
export { extractUsage } from "./usage_scan.ts";
export { createLocalModel, type LocalModelOptions, SEARCH_TOOL_NAME } from "./local_model.ts";
export { type AnswerPassage, buildExtractiveAnswer, detectLang } from "./extractive.ts";
export { gatewayBaseUrl, type ProviderConfig, providerConfig, PROVIDERS } from "./providers.ts";
