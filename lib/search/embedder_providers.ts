/**
 * Embedders through the AI SDK's `embedMany`: OpenAI, Google Gemini, and
 * OpenAI-compatible endpoints (Cloudflare Workers AI, a local server).
 */
import { type EmbeddingModel, embedMany } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { Embedder, EmbedKind } from "./embedder.ts";
import { EmbedderError } from "./errors.ts";

/** Values a single provider request carries; batches are split to stay under provider caps. */
const BATCH = 96;

/** Wrap an AI SDK embedding model as an Embedder. */
export function aiSdkEmbedder(
  model: string,
  embeddingModel: EmbeddingModel,
  providerOptions?: (kind: EmbedKind) => Record<string, Record<string, string>> | undefined,
): Embedder {
  return {
    model,
    async embed(values, options = {}) {
      const out: Float32Array[] = [];
      for (let i = 0; i < values.length; i += BATCH) {
        const { embeddings } = await embedMany({
          model: embeddingModel,
          values: values.slice(i, i + BATCH),
          abortSignal: options.signal,
          maxRetries: 1,
          providerOptions: providerOptions?.(options.kind ?? "passage"),
        });
        for (const e of embeddings) out.push(Float32Array.from(e));
      }
      return out;
    },
  };
}

function need(env: Record<string, string | undefined>, name: string, model: string): string {
  const v = env[name]?.trim();
  if (!v) {
    throw new EmbedderError(
      `EMBEDDING_MODEL is "${model}" but ${name} is not set: set it or unset EMBEDDING_MODEL`,
    );
  }
  return v;
}

/**
 * The embedder configured by the environment, or null when EMBEDDING_MODEL is
 * unset (lexical search). Throws EmbedderError when it is set but unusable.
 *
 * Reads EMBEDDING_MODEL ("openai:text-embedding-3-small",
 * "google:gemini-embedding-001", "cloudflare:@cf/baai/bge-m3", "local:<name>")
 * and the matching OPENAI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY,
 * CLOUDFLARE_ACCOUNT_ID + CLOUDFLARE_API_TOKEN, or LOCAL_OPENAI_BASE_URL
 * (+ optional LOCAL_OPENAI_API_KEY).
 *
 * @example createEmbedderFromEnv(Deno.env.toObject())
 */
export function createEmbedderFromEnv(
  env: Record<string, string | undefined>,
  fetch?: typeof globalThis.fetch,
): Embedder | null {
  const spec = env.EMBEDDING_MODEL?.trim();
  if (!spec) return null;
  const sep = spec.indexOf(":");
  const provider = sep > 0 ? spec.slice(0, sep) : "";
  const id = sep > 0 ? spec.slice(sep + 1) : "";
  if (!id) {
    throw new EmbedderError(
      `EMBEDDING_MODEL "${spec}" is not "<provider>:<model>": use e.g. "openai:text-embedding-3-small"`,
    );
  }
  switch (provider) {
    case "openai":
      return aiSdkEmbedder(
        spec,
        createOpenAI({ apiKey: need(env, "OPENAI_API_KEY", spec), fetch }).embeddingModel(id),
      );
    case "google":
      return aiSdkEmbedder(
        spec,
        createGoogleGenerativeAI({ apiKey: need(env, "GOOGLE_GENERATIVE_AI_API_KEY", spec), fetch })
          .embeddingModel(id),
        // Gemini embeds queries and documents asymmetrically.
        (kind) => ({
          google: { taskType: kind === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT" },
        }),
      );
    case "cloudflare": {
      const account = need(env, "CLOUDFLARE_ACCOUNT_ID", spec);
      return aiSdkEmbedder(
        spec,
        createOpenAICompatible({
          name: "cloudflare",
          // Workers AI's OpenAI-compatible endpoint.
          baseURL: `https://api.cloudflare.com/client/v4/accounts/${
            encodeURIComponent(account)
          }/ai/v1`,
          apiKey: need(env, "CLOUDFLARE_API_TOKEN", spec),
          fetch,
        }).embeddingModel(id),
      );
    }
    case "local":
      return aiSdkEmbedder(
        spec,
        createOpenAICompatible({
          name: "local",
          baseURL: need(env, "LOCAL_OPENAI_BASE_URL", spec).replace(/\/+$/, ""),
          apiKey: env.LOCAL_OPENAI_API_KEY || undefined,
          fetch,
        }).embeddingModel(id),
      );
    default:
      throw new EmbedderError(
        `Unknown embedding provider "${provider}" in EMBEDDING_MODEL "${spec}": use openai, google, cloudflare or local`,
      );
  }
}
