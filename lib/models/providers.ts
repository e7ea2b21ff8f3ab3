/**
 * Provider configuration read from the environment: whether a provider is
 * configured, its direct base URL, its key, and its path under an AI gateway.
 */
import type { Env, ProviderId } from "./types.ts";

/** What the registry needs to build one provider's adapter. */
export interface ProviderConfig {
  provider: ProviderId;
  configured: boolean;
  /** Env vars that must be set for the provider to be configured. */
  requires: string[];
  /** The provider's own base URL (what the SDK would call without a gateway). */
  directBaseUrl: string;
  apiKey?: string;
  /**
   * Path of this provider under the gateway base URL (Cloudflare AI Gateway layout
   * `<gateway>/<provider>/...`); undefined when calls never go through the gateway.
   */
  gatewayPath?: string;
}

/** The providers the registry knows, in catalog order. */
export const PROVIDERS: readonly ProviderId[] = [
  "openai",
  "google",
  "cerebras",
  "openrouter",
  "cloudflare",
  "local-endpoint",
  "offline",
];

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * Reads one provider's configuration.
 *
 * @example
 * ```ts
 * providerConfig("cerebras", { CEREBRAS_API_KEY: "k" }).directBaseUrl; // "https://api.cerebras.ai/v1"
 * ```
 */
// long-function: one short case per provider of a fixed list, read side by side
export function providerConfig(provider: ProviderId, env: Env): ProviderConfig {
  switch (provider) {
    case "openai": {
      const apiKey = value(env, "OPENAI_API_KEY");
      return {
        provider,
        configured: apiKey !== undefined,
        requires: ["OPENAI_API_KEY"],
        directBaseUrl: trimSlash(value(env, "OPENAI_BASE_URL") ?? "https://api.openai.com/v1"),
        apiKey,
        gatewayPath: "openai",
      };
    }
    case "google": {
      const apiKey = value(env, "GOOGLE_GENERATIVE_AI_API_KEY");
      return {
        provider,
        configured: apiKey !== undefined,
        requires: ["GOOGLE_GENERATIVE_AI_API_KEY"],
        directBaseUrl: trimSlash(
          value(env, "GOOGLE_BASE_URL") ?? "https://generativelanguage.googleapis.com/v1beta",
        ),
        apiKey,
        gatewayPath: "google-ai-studio/v1beta",
      };
    }
    case "cerebras": {
      const apiKey = value(env, "CEREBRAS_API_KEY");
      return {
        provider,
        configured: apiKey !== undefined,
        requires: ["CEREBRAS_API_KEY"],
        directBaseUrl: trimSlash(value(env, "CEREBRAS_BASE_URL") ?? "https://api.cerebras.ai/v1"),
        apiKey,
        gatewayPath: "cerebras",
      };
    }
    case "openrouter": {
      const apiKey = value(env, "OPENROUTER_API_KEY");
      return {
        provider,
        configured: apiKey !== undefined,
        requires: ["OPENROUTER_API_KEY"],
        directBaseUrl: trimSlash(
          value(env, "OPENROUTER_BASE_URL") ?? "https://openrouter.ai/api/v1",
        ),
        apiKey,
        gatewayPath: "openrouter",
      };
    }
    case "cloudflare": {
      const accountId = value(env, "CLOUDFLARE_ACCOUNT_ID");
      const apiKey = value(env, "CLOUDFLARE_API_TOKEN");
      const base = value(env, "CLOUDFLARE_BASE_URL") ??
        `https://api.cloudflare.com/client/v4/accounts/${
          encodeURIComponent(accountId ?? "-")
        }/ai/v1`;
      return {
        provider,
        configured: accountId !== undefined && apiKey !== undefined,
        requires: ["CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_API_TOKEN"],
        directBaseUrl: trimSlash(base),
        apiKey,
        gatewayPath: "workers-ai/v1",
      };
    }
    case "local-endpoint": {
      const baseUrl = value(env, "LOCAL_OPENAI_BASE_URL");
      return {
        provider,
        configured: baseUrl !== undefined,
        requires: ["LOCAL_OPENAI_BASE_URL"],
        directBaseUrl: trimSlash(baseUrl ?? "http://127.0.0.1:11434/v1"),
        apiKey: value(env, "LOCAL_OPENAI_API_KEY"),
        // A gateway in the cloud cannot reach a machine-local endpoint.
        gatewayPath: undefined,
      };
    }
    case "offline":
      return { provider, configured: true, requires: [], directBaseUrl: "" };
  }
}

/** The gateway base URL for a provider, or undefined when calls go direct. */
export function gatewayBaseUrl(config: ProviderConfig, env: Env): string | undefined {
  const gateway = value(env, "AI_GATEWAY_URL");
  if (!gateway || config.gatewayPath === undefined) return undefined;
  return `${trimSlash(gateway)}/${config.gatewayPath}`;
}
