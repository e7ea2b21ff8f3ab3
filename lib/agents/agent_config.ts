/**
 * Checks an {@linkcode AgentConfig} as the owner wrote it and resolves its headers'
 * `${ENV_NAME}` references. Mistakes throw {@linkcode AgentConfigError}, whose
 * message names the agent and the fix.
 *
 * Rules: the id is `^[a-z0-9][a-z0-9_-]{0,63}$`; baseUrl is an http(s) URL without
 * query, fragment or credentials, and https for an agent that runs on the server
 * unless it is `local`; an agent that runs in the browser cannot reference the
 * environment in its headers (every visitor would receive the secret). An MCP agent
 * (`kind: "mcp"`) runs on the server, has no spec and no `approvalMode`, and its
 * `tools` allow-list names tools.
 */
import { AgentConfigError } from "./types.ts";
import type { AgentConfig, AgentOperation, McpAgentConfig } from "./types.ts";

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Throws when `agent` is not usable; returns it unchanged otherwise. */
export function validateAgentConfig(agent: AgentConfig): AgentConfig {
  const id = String(agent.id);
  if (!ID.test(id)) {
    throw new AgentConfigError(
      `Agent "${id}": the id must match ${ID} (lower-case letters, digits, "_" and "-"). Fix: rename it, e.g. "contact".`,
      id,
    );
  }
  if (isMcpAgent(agent)) return validateMcpAgent(agent);
  if (agent.kind !== undefined && agent.kind !== "openapi") {
    throw new AgentConfigError(
      `Agent "${id}": "kind" is ${
        JSON.stringify(agent.kind)
      }. Fix: leave it out for an OpenAPI agent, or set it to "mcp" for a remote MCP server.`,
      id,
    );
  }
  if (agent.runIn !== "server" && agent.runIn !== "browser") {
    throw new AgentConfigError(
      `Agent "${id}": "runIn" is "${agent.runIn}". Fix: set it to "server" or "browser".`,
      id,
    );
  }
  checkBaseUrl(agent);
  if (agent.approvalMode !== undefined && !["writes", "all"].includes(agent.approvalMode)) {
    throw new AgentConfigError(
      `Agent "${id}": "approvalMode" is ${
        JSON.stringify(agent.approvalMode)
      }. Fix: set it to "writes" (reads run at once) or "all" (every call waits for the visitor).`,
      id,
    );
  }
  if (agent.runIn === "browser") {
    for (const [name, value] of Object.entries(agent.headers ?? {})) {
      if (envReferences(value).length) {
        throw new AgentConfigError(
          `Agent "${id}": header "${name}" references the environment, but the agent runs in the browser, so every visitor would receive the secret. Fix: set "runIn" to "server" or remove the header.`,
          id,
        );
      }
    }
  }
  return agent;
}

/** Whether `agent` is a remote MCP server rather than an OpenAPI agent. */
export function isMcpAgent(agent: Pick<AgentConfig, "kind">): agent is McpAgentConfig {
  return agent.kind === "mcp";
}

/** What an agent's tools come from, for messages: its spec, or an MCP server's URL. */
export function agentSource(agent: AgentConfig): string {
  return isMcpAgent(agent) ? agent.baseUrl : agent.spec;
}

function validateMcpAgent(agent: McpAgentConfig): AgentConfig {
  const id = agent.id;
  if (agent.runIn !== undefined && agent.runIn !== "server") {
    throw new AgentConfigError(
      `Agent "${id}": an MCP agent runs on the server, but "runIn" is "${agent.runIn}". Fix: remove "runIn".`,
      id,
    );
  }
  if (agent.approvalMode !== undefined) {
    throw new AgentConfigError(
      `Agent "${id}": "approvalMode" is for OpenAPI agents; every call of an MCP agent waits for the visitor. Fix: remove it, and use "autoRunReadOnly: true" or "approval" to let tools run at once.`,
      id,
    );
  }
  const tools = agent.tools;
  if (tools !== undefined && (!Array.isArray(tools) || tools.some((t) => typeof t !== "string"))) {
    throw new AgentConfigError(
      `Agent "${id}": "tools" must be a list of the server's tool names. Fix: write e.g. ["search_site"].`,
      id,
    );
  }
  if (agent.autoRunReadOnly !== undefined && typeof agent.autoRunReadOnly !== "boolean") {
    throw new AgentConfigError(
      `Agent "${id}": "autoRunReadOnly" is ${
        JSON.stringify(agent.autoRunReadOnly)
      }. Fix: set it to true or false.`,
      id,
    );
  }
  checkBaseUrl(agent);
  return agent;
}

function checkBaseUrl(agent: AgentConfig): void {
  let url: URL | null = null;
  try {
    url = new URL(agent.baseUrl);
  } catch {
    // reported below
  }
  const plain = url && (url.protocol === "https:" || url.protocol === "http:") && !url.search &&
    !url.hash && !url.username && !url.password;
  if (!url || !plain) {
    throw new AgentConfigError(
      `Agent "${agent.id}": baseUrl "${agent.baseUrl}" is not a plain http(s) URL. Fix: write it like "https://api.example.com/v1" (no query, fragment or credentials).`,
      agent.id,
    );
  }
  if (url.protocol === "http:" && agent.runIn !== "browser" && !agent.local) {
    throw new AgentConfigError(
      `Agent "${agent.id}": baseUrl "${agent.baseUrl}" is not https. Fix: use https, or set "local: true" for an API on this machine or network.`,
      agent.id,
    );
  }
}

/**
 * Whether a call of `operation` waits for the visitor: the agent's `approval` rule for the
 * operation when it has one (`"always"` / `"never"`), else `approvalMode`: `"all"` asks for
 * every call, `"writes"` (the default) for every method but GET and HEAD. A tool of an MCP
 * server waits unless the server marks it read-only and the owner set `autoRunReadOnly`.
 */
export function operationNeedsApproval(
  operation: Pick<AgentOperation, "method" | "toolName" | "mcp">,
  agent: Pick<AgentConfig, "approval" | "approvalMode"> & { autoRunReadOnly?: boolean },
): boolean {
  const rule = agent.approval?.[operation.mcp?.tool ?? operation.toolName];
  if (rule === "always") return true;
  if (rule === "never") return false;
  if (operation.mcp) return !(operation.mcp.readOnly && agent.autoRunReadOnly === true);
  if (agent.approvalMode === "all") return true;
  return operation.method !== "GET" && operation.method !== "HEAD";
}

/** The names of the environment variables referenced by a header value. */
export function envReferences(value: string): string[] {
  return [...value.matchAll(ENV_REFERENCE)].map((match) => match[1]);
}

/**
 * The agent's headers with every `${ENV_NAME}` replaced from `env`; a missing or
 * empty variable throws.
 */
export function resolveAgentHeaders(
  agent: AgentConfig,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(agent.headers ?? {})) {
    resolved[name] = value.replace(ENV_REFERENCE, (_, variable: string) => {
      const found = env[variable];
      if (!found) {
        throw new AgentConfigError(
          `Agent "${agent.id}": header "${name}" needs the environment variable ${variable}, which is not set. Fix: set ${variable} or remove the header.`,
          agent.id,
        );
      }
      return found;
    });
  }
  return resolved;
}

/** The header names that are secret on the approval card: all the agent's configured headers. */
export function secretHeaderNames(agent: AgentConfig): string[] {
  return Object.keys(agent.headers ?? {});
}
