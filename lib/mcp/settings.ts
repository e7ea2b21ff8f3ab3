/**
 * The MCP server's settings, read from the environment once at start (lib/server.ts):
 * whether `/mcp` answers at all, the bearer token it asks for, the model `ask_site` uses
 * and the global request ceiling over every caller.
 */
import type { RateLimit } from "@/lib/config.ts";

/** What `/mcp` runs with. */
export interface McpSettings {
  /** `MCP_ENABLED`: false turns `/mcp` into a 404 (default true). */
  enabled: boolean;
  /** `MCP_TOKEN`: when set, every request must carry `Authorization: Bearer <token>`. */
  token: string | null;
  /** `MCP_ASK_MODEL`: the catalog model `ask_site` answers with (default the offline one). */
  askModel: string;
  /** `MCP_GLOBAL_REQUESTS_PER_MINUTE`: requests a minute to `/mcp` from all callers together. */
  global: RateLimit;
}

/** The default ceiling over all callers: ten times one address's chat allowance. */
export const DEFAULT_MCP_GLOBAL_RPM = 600;

/** The offline model's id (lib/models/catalog.ts), repeated to keep this module free of imports. */
const OFFLINE_MODEL_ID = "local";

/**
 * Reads the settings from `env`; a value that cannot be used stops the start with its fix.
 *
 * @example mcpSettingsFromEnv({ MCP_ENABLED: "false" }).enabled // false
 */
export function mcpSettingsFromEnv(env: Record<string, string | undefined>): McpSettings {
  const enabled = (env.MCP_ENABLED ?? "").trim().toLowerCase();
  if (enabled && !["true", "false", "1", "0", "on", "off"].includes(enabled)) {
    throw new Error(`MCP_ENABLED is "${env.MCP_ENABLED}": set it to true or false.`);
  }
  const rpmText = env.MCP_GLOBAL_REQUESTS_PER_MINUTE?.trim();
  const rpm = rpmText ? Number(rpmText) : DEFAULT_MCP_GLOBAL_RPM;
  if (!Number.isInteger(rpm) || rpm < 1) {
    throw new Error(
      `MCP_GLOBAL_REQUESTS_PER_MINUTE is "${rpmText}": set a whole number of requests, 1 or more.`,
    );
  }
  const token = env.MCP_TOKEN?.trim() || null;
  if (token !== null && token.length < 16) {
    throw new Error("MCP_TOKEN is shorter than 16 characters: use a long random token.");
  }
  return {
    enabled: !["false", "0", "off"].includes(enabled),
    token,
    askModel: env.MCP_ASK_MODEL?.trim() || OFFLINE_MODEL_ID,
    global: { requestsPerMinute: rpm, tokensPerDay: Number.MAX_SAFE_INTEGER },
  };
}
