/**
 * Agents whose baseUrl is `"self"`: APIs of this app (the built-in contact agent).
 *
 * "self" is not a URL until a turn has an origin: the turn resolves it to the site's
 * origin (`site.url`, else the request's), and lib/tools/agent_tools.ts dispatches
 * their calls to the app in-process. Checks and spec loading see a stand-in loopback
 * URL instead ({@linkcode loadableConfig}).
 *
 * No dependencies: fresh.config.ts (through lib/config.ts) imports it.
 */
import type { AgentConfig } from "@/lib/agents/types.ts";

/** The baseUrl that means "this app's own origin". */
export const SELF_BASE_URL = "self";

/** Whether `agent`'s baseUrl is this app's own origin. */
export function isSelfAgent(agent: Pick<AgentConfig, "baseUrl">): boolean {
  return agent.baseUrl === SELF_BASE_URL;
}

/** The base URL requests of `agent` go to in a turn whose site origin is `origin`. */
export function agentBaseUrl(agent: Pick<AgentConfig, "baseUrl">, origin: string): string {
  return isSelfAgent(agent) ? new URL("/", origin).href : agent.baseUrl;
}

/**
 * The agent's config as lib/agents checks and loads it: a "self" agent gets a stand-in
 * loopback URL (and `local`), since "self" has no origin outside a turn.
 */
export function loadableConfig(agent: AgentConfig): AgentConfig {
  // An MCP agent names its server's full URL: "self" is refused for it by the check.
  return isSelfAgent(agent) && agent.kind !== "mcp"
    ? { ...agent, baseUrl: "http://localhost/", local: true }
    : agent;
}
