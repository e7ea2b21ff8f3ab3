/**
 * The tools of MCP agents, listed from their servers when a turn needs them: each tool of
 * a server (or of the owner's `tools` allow-list) becomes an operation named
 * `<agent id>_<tool>` that the turn's tools treat like an OpenAPI operation (approval,
 * caps, labels), its call a JSON-RPC `tools/call` (lib/agents/request.ts).
 *
 * Lists are fetched with a deadline and kept per agent for `ttlMs`; a server that does not
 * answer keeps the last list it gave (its calls then fail with a tool error the model
 * reads) and is asked again after `retryMs`, so a down server does not slow every turn.
 * A server never listed says so in a note for the model's instructions.
 *
 * Server-only.
 */
import { operationNeedsApproval, secretHeaderNames } from "@/lib/agents/agent_config.ts";
import { listMcpTools, type McpToolInfo } from "@/lib/agents/mcp_client.ts";
import { TOOL_NAME } from "@/lib/agents/spec.ts";
import type { AgentConfig, AgentOperation, McpAgentConfig } from "@/lib/agents/types.ts";
import { localize } from "@/lib/i18n/localized.ts";
import type { ReadyAgent } from "./agent_tools.ts";

/** Options of {@linkcode withRemoteTools}. */
export interface RemoteToolsOptions {
  /** Deadline of one listing (default 5 s). */
  timeoutMs?: number;
  /** How long a list is used before it is fetched again (default 5 min). */
  ttlMs?: number;
  /** After a failed listing, how long before the server is asked again (default 30 s). */
  retryMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
  /** The fetch the MCP client sends with (tests); default global fetch, under the policy. */
  fetch?: typeof fetch;
}

/** The agents of a turn with their remote tools, and what the model should know of failures. */
export interface RemoteTools {
  agents: ReadyAgent[];
  /** One sentence per MCP agent whose tools could not be listed. */
  notes: string[];
}

interface Listing {
  tools: McpToolInfo[] | null;
  error: string | null;
  checkedAt: number;
  pending: Promise<void> | null;
}

/** Per agent declaration (one per server instance of the app): its last listing. */
const listings = new WeakMap<AgentConfig, Listing>();

/** `agents` with every MCP agent's operations filled from its server's current list. */
export async function withRemoteTools(
  agents: readonly ReadyAgent[],
  options: RemoteToolsOptions = {},
): Promise<RemoteTools> {
  const notes: string[] = [];
  const ready = await Promise.all(agents.map(async (one) => {
    if (one.agent.kind !== "mcp") return one;
    const listing = await currentListing(one, options);
    if (!listing.tools) {
      notes.push(
        `The tools of "${
          localize(one.agent.name, "en")
        }" (an MCP server) cannot be used right now: ${listing.error}. If the visitor needs them, say so and suggest trying again later.`,
      );
      return { ...one, operations: [] };
    }
    return { ...one, operations: mcpOperations(one.agent as McpAgentConfig, listing.tools) };
  }));
  return { agents: ready, notes };
}

async function currentListing(one: ReadyAgent, options: RemoteToolsOptions): Promise<Listing> {
  const now = options.now ?? Date.now;
  let listing = listings.get(one.agent);
  if (!listing) {
    listing = { tools: null, error: null, checkedAt: -Infinity, pending: null };
    listings.set(one.agent, listing);
  }
  const age = now() - listing.checkedAt;
  const stale = listing.error
    ? age >= (options.retryMs ?? 30_000)
    : age >= (options.ttlMs ?? 300_000);
  if (stale && !listing.pending) listing.pending = refresh(one, listing, options);
  if (listing.pending) await listing.pending;
  return listing;
}

async function refresh(one: ReadyAgent, listing: Listing, options: RemoteToolsOptions) {
  const agent = one.agent;
  const result = await listMcpTools({
    agent: { id: agent.id, baseUrl: agent.baseUrl, local: agent.local },
    secretHeaders: secretHeaderNames(agent),
    headers: one.headers,
    timeoutMs: options.timeoutMs ?? 5_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  listing.checkedAt = (options.now ?? Date.now)();
  listing.pending = null;
  if ("error" in result) {
    listing.error = result.error.message;
    console.warn(`MCP agent "${agent.id}": could not list its tools: ${result.error.message}`);
    return;
  }
  listing.tools = result.tools;
  listing.error = null;
}

/**
 * The operations of `agent` for the tools its server listed: only the allow-listed ones
 * (when `tools` is set), named `<id>_<tool>`; a tool whose name cannot be a tool name
 * (characters outside `[A-Za-z0-9_-]`, longer than 64 with the prefix) or whose input is
 * not an object schema is left out and logged.
 */
export function mcpOperations(
  agent: McpAgentConfig,
  tools: readonly McpToolInfo[],
): AgentOperation[] {
  const allowed = agent.tools ? new Set(agent.tools) : null;
  const operations: AgentOperation[] = [];
  for (const tool of tools) {
    if (allowed && !allowed.has(tool.name)) continue;
    const toolName = `${agent.id}_${tool.name}`;
    if (!TOOL_NAME.test(toolName) || tool.inputSchema?.type !== "object") {
      console.warn(
        `MCP agent "${agent.id}": tool "${tool.name}" left out (its name or input schema cannot be a chat tool's).`,
      );
      continue;
    }
    const mcp = { tool: tool.name, readOnly: tool.readOnly };
    operations.push({
      agentId: agent.id,
      toolName,
      method: "POST",
      pathTemplate: "",
      ...(tool.title ? { summary: tool.title } : {}),
      ...(tool.description ? { description: tool.description } : {}),
      parameters: { path: [], query: [], header: [] },
      inputSchema: tool.inputSchema,
      needsApproval: operationNeedsApproval({ method: "POST", toolName, mcp }, agent),
      mcp,
    });
  }
  return operations;
}
