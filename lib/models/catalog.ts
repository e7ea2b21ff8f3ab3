/**
 * The model catalog: which models the app offers, their capabilities and public
 * list prices (US$ per million tokens, as published by each provider in 2025).
 */
import type { Env, ModelInfo } from "./types.ts";

/** Catalog id of the offline model that quotes the site. */
export const OFFLINE_MODEL_ID = "local";

/** Catalog id of the model served by `LOCAL_OPENAI_BASE_URL` (Ollama, llama.cpp, vLLM). */
export const LOCAL_ENDPOINT_MODEL_ID = "local-endpoint";

/** Default model name asked of the local endpoint when `LOCAL_OPENAI_MODEL` is unset. */
export const DEFAULT_LOCAL_OPENAI_MODEL = "llama3.2";

const STATIC_MODELS: ModelInfo[] = [
  {
    id: "openai/gpt-5-mini",
    label: "GPT-5 mini (OpenAI)",
    family: "openai",
    provider: "openai",
    providerModelId: "gpt-5-mini",
    capabilities: ["tools", "reasoning", "vision"],
    contextWindow: 400_000,
    pricing: { inputPerMTok: 0.25, outputPerMTok: 2 },
  },
  {
    id: "openai/gpt-4.1-mini",
    label: "GPT-4.1 mini (OpenAI)",
    family: "openai",
    provider: "openai",
    providerModelId: "gpt-4.1-mini",
    capabilities: ["tools", "vision"],
    contextWindow: 1_047_576,
    pricing: { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  },
  {
    id: "google/gemini-2.5-flash",
    label: "Gemini 2.5 Flash (Google)",
    family: "google",
    provider: "google",
    providerModelId: "gemini-2.5-flash",
    capabilities: ["tools", "reasoning", "vision"],
    contextWindow: 1_048_576,
    pricing: { inputPerMTok: 0.3, outputPerMTok: 2.5 },
  },
  {
    id: "google/gemini-2.5-flash-lite",
    label: "Gemini 2.5 Flash-Lite (Google)",
    family: "google",
    provider: "google",
    providerModelId: "gemini-2.5-flash-lite",
    capabilities: ["tools", "reasoning", "vision"],
    contextWindow: 1_048_576,
    pricing: { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  },
  {
    id: "cerebras/gpt-oss-120b",
    label: "gpt-oss-120b (Cerebras)",
    family: "openai-compatible",
    provider: "cerebras",
    providerModelId: "gpt-oss-120b",
    capabilities: ["tools", "reasoning"],
    contextWindow: 131_072,
    pricing: { inputPerMTok: 0.35, outputPerMTok: 0.75 },
  },
  {
    id: "cerebras/llama-3.3-70b",
    label: "Llama 3.3 70B (Cerebras)",
    family: "openai-compatible",
    provider: "cerebras",
    providerModelId: "llama-3.3-70b",
    capabilities: ["tools"],
    contextWindow: 65_536,
    pricing: { inputPerMTok: 0.85, outputPerMTok: 1.2 },
  },
  {
    id: "openrouter/meta-llama/llama-3.3-70b-instruct",
    label: "Llama 3.3 70B Instruct (OpenRouter)",
    family: "openai-compatible",
    provider: "openrouter",
    providerModelId: "meta-llama/llama-3.3-70b-instruct",
    capabilities: ["tools"],
    contextWindow: 131_072,
    pricing: { inputPerMTok: 0.13, outputPerMTok: 0.4 },
  },
  {
    id: "openrouter/google/gemini-2.5-flash",
    label: "Gemini 2.5 Flash (OpenRouter)",
    family: "openai-compatible",
    provider: "openrouter",
    providerModelId: "google/gemini-2.5-flash",
    capabilities: ["tools", "reasoning", "vision"],
    contextWindow: 1_048_576,
    pricing: { inputPerMTok: 0.3, outputPerMTok: 2.5 },
  },
  {
    id: "cloudflare/llama-3.3-70b-instruct-fp8-fast",
    label: "Llama 3.3 70B fp8 fast (Cloudflare Workers AI)",
    family: "openai-compatible",
    provider: "cloudflare",
    providerModelId: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
    capabilities: ["tools"],
    contextWindow: 24_000,
    pricing: { inputPerMTok: 0.293, outputPerMTok: 2.253 },
  },
];

const OFFLINE_MODEL: ModelInfo = {
  id: OFFLINE_MODEL_ID,
  label: {
    "pt-BR": "Offline — cita o site, sem IA",
    en: "Offline — quotes the site, no AI",
  },
  family: "offline",
  provider: "offline",
  providerModelId: "local",
  capabilities: ["tools"],
  contextWindow: 32_768,
  pricing: { inputPerMTok: 0, outputPerMTok: 0 },
};

/**
 * The catalog for an environment: the fixed models, the local endpoint's model
 * (named by `LOCAL_OPENAI_MODEL`), and the offline model last.
 *
 * @example
 * ```ts
 * buildCatalog({ LOCAL_OPENAI_MODEL: "qwen2.5" }).find((m) => m.id === "local-endpoint");
 * ```
 */
export function buildCatalog(env: Env = {}): ModelInfo[] {
  const localModel = env.LOCAL_OPENAI_MODEL?.trim() || DEFAULT_LOCAL_OPENAI_MODEL;
  return [
    ...STATIC_MODELS.map((m) => ({
      ...m,
      capabilities: [...m.capabilities],
      pricing: { ...m.pricing },
    })),
    {
      id: LOCAL_ENDPOINT_MODEL_ID,
      label: { "pt-BR": `${localModel} (endpoint local)`, en: `${localModel} (local endpoint)` },
      family: "openai-compatible",
      provider: "local-endpoint",
      providerModelId: localModel,
      capabilities: ["tools"],
      contextWindow: 131_072,
      pricing: { inputPerMTok: 0, outputPerMTok: 0 },
    },
    {
      ...OFFLINE_MODEL,
      capabilities: [...OFFLINE_MODEL.capabilities],
      pricing: { ...OFFLINE_MODEL.pricing },
    },
  ];
}

/** The catalog with default settings (local endpoint model "llama3.2"). */
export const CATALOG: readonly ModelInfo[] = buildCatalog();

/** Finds a catalog entry by id, or undefined. */
export function findModel(id: string, env: Env = {}): ModelInfo | undefined {
  return buildCatalog(env).find((m) => m.id === id);
}
