/**
 * The tools of one chat turn, in one place: the site search, artifacts and every configured
 * agent's operations, assembled per turn (the search numbers passages per turn, and
 * agent calls carry the turn's chat, locale and visitor).
 *
 * Server-only.
 */
import type { ToolSet } from "ai";
import type { AgentOperation } from "@/lib/agents/types.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import {
  type AgentToolContext,
  agentTools,
  needsApproval,
  type ReadyAgent,
} from "./agent_tools.ts";
import { createSearchTool, SEARCH_TOOL } from "./search_site.ts";
import { ARTIFACT_TOOL, createArtifactTool } from "./create_artifact.ts";

export {
  agentBaseUrl,
  type AgentToolContext,
  type AgentToolOutput,
  type ApprovalRequestView,
  describeForApproval,
  hashVisitorId,
  isSelfAgent,
  needsApproval,
  prepareRequest,
  type ReadyAgent,
  runAgentCall,
  SELF_BASE_URL,
  type SelfApp,
} from "./agent_tools.ts";
export { loadAgents, type LoadAgentsOptions, readyAgents } from "./load_agents.ts";
export { type RemoteTools, type RemoteToolsOptions, withRemoteTools } from "./mcp_tools.ts";
export { createSearchTool, SEARCH_TOOL } from "./search_site.ts";

/** Tool names the chat keeps for itself; no agent operation may take them. */
export const RESERVED_TOOL_NAMES: readonly string[] = [SEARCH_TOOL, ARTIFACT_TOOL];

/** Options of {@linkcode turnTools}. */
export interface TurnToolsOptions {
  search: SiteSearch;
  /** The configured agents, loaded at start (`services.agents`). */
  agents: readonly ReadyAgent[];
  /** Origin that makes passage URLs absolute. */
  origin: string;
  /** Other origins of the site whose URLs may be source links (`allowedOrigins`). */
  siteOrigins?: readonly string[];
  /** The turn's facts agent calls carry (its `origin` resolves "self" agents). */
  context: AgentToolContext;
}

/** Which agent and operation a tool call belongs to, when it needs the visitor's approval. */
export interface ApprovalTarget {
  agent: ReadyAgent;
  operation: AgentOperation;
}

/** The tools of a turn and the approval rule over them. */
export interface TurnTools {
  tools: ToolSet;
  /**
   * The agent and operation behind `toolName` when a call of it waits for the visitor;
   * null for tools that run at once (the site search, GET operations, `approval: "never"`).
   */
  approvalFor(toolName: string, input: unknown): ApprovalTarget | null;
  /** The agent and operation behind `toolName`; null for the chat's own tools. */
  agentFor(toolName: string): ApprovalTarget | null;
}

/** Assembles the tools of one turn. */
export function turnTools(options: TurnToolsOptions): TurnTools {
  const tools: ToolSet = {
    [SEARCH_TOOL]: createSearchTool(options.search, {
      origin: options.origin,
      siteOrigins: options.siteOrigins,
    }),
    [ARTIFACT_TOOL]: createArtifactTool(),
  };
  const byTool = new Map<string, ApprovalTarget>();
  for (const ready of options.agents) {
    const built = agentTools(ready, options.context);
    for (const operation of ready.operations) {
      const name = operation.toolName;
      // Spec names were checked at start; an MCP server's names arrive at run time.
      if (tools[name]) {
        console.warn(`Agent "${ready.agent.id}": tool "${name}" left out, the name is taken.`);
        continue;
      }
      tools[name] = built[name];
      byTool.set(name, { agent: ready, operation });
    }
  }
  return {
    tools,
    approvalFor(toolName) {
      const target = byTool.get(toolName);
      return target && needsApproval(target.operation, target.agent.agent) ? target : null;
    },
    agentFor: (toolName) => byTool.get(toolName) ?? null,
  };
}
