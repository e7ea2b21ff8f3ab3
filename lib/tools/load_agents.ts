/**
 * Loads the configured agents once (at start, and at build to check the specs): every
 * spec through `loadAgent`, then the tool names across agents, with the chat's own
 * tools reserved. Any mistake throws `AgentConfigError` naming the agent and the fix.
 *
 * Server-only.
 */
import {
  checkToolNames,
  loadAgent,
  type LoadedAgent,
  type LoadSpecOptions,
} from "@/lib/agents/spec.ts";
import type { AgentConfig } from "@/lib/agents/types.ts";
import { type ReadyAgent, readyAgent } from "./agent_tools.ts";
import { loadableConfig } from "../agents/self_agent.ts";
import { SEARCH_TOOL } from "./search_site.ts";
import { ARTIFACT_TOOL } from "./create_artifact.ts";

/** Options of {@linkcode loadAgents}: those of `loadAgent`. */
export type LoadAgentsOptions = LoadSpecOptions;

/** Loads every agent's spec and checks that no two tools share a name. */
export async function loadAgents(
  configs: readonly AgentConfig[],
  options: LoadAgentsOptions = {},
): Promise<LoadedAgent[]> {
  const loaded: LoadedAgent[] = [];
  for (const agent of configs) {
    const { operations } = await loadAgent(loadableConfig(agent), options);
    // Keep the owner's config ("self" stays "self": it is resolved per turn).
    loaded.push({ agent, operations });
  }
  checkToolNames(loaded, [SEARCH_TOOL, ARTIFACT_TOOL]);
  return loaded;
}

/** `loaded` with every agent's headers resolved from `env` (a missing variable throws). */
export function readyAgents(
  loaded: readonly LoadedAgent[],
  env: Record<string, string | undefined>,
): ReadyAgent[] {
  return loaded.map((one) => readyAgent(one, env));
}
