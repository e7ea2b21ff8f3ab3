/**
 * The agents' operations as `deno task build` loaded and checked them, kept in
 * build/agents.json so that a cold server need not validate the OpenAPI specs again: the
 * validator (swagger-parser) and its work are most of what a first chat waited for after
 * a cold start (docs/cold-start.md).
 *
 * The cache counts only while nothing it was built from changed: the agents' config, the
 * text of every spec file, and the code that turns a spec into operations. Anything else
 * (a spec given by URL, a missing or stale file) means a full load through
 * lib/tools/load_agents.ts, with its errors. Server-only; imports nothing heavy.
 */
import type { LoadedAgent } from "@/lib/agents/spec.ts";
import type { AgentConfig } from "@/lib/agents/types.ts";

/** Where the build writes the cache, under the project root. */
export const AGENT_CACHE_PATH = "build/agents.json";

/** The sources whose change makes a cache stale: the code that builds operations. */
const CODE = ["../agents/spec.ts", "../agents/agent_config.ts", "../agents/types.ts"];

interface CacheFile {
  key: string;
  operations: LoadedAgent["operations"][];
}

/** The key of `agents` as they are now; null when one cannot be cached (a spec URL). */
async function cacheKey(agents: readonly AgentConfig[], root: URL): Promise<string | null> {
  const parts: string[] = [JSON.stringify(agents)];
  for (const path of CODE) parts.push(await Deno.readTextFile(new URL(path, import.meta.url)));
  for (const agent of agents) {
    if (agent.kind === "mcp") continue; // no spec: its tools are listed at run time
    if (!agent.spec.startsWith("static/agents/")) return null;
    try {
      parts.push(await Deno.readTextFile(new URL(agent.spec, root)));
    } catch {
      return null;
    }
  }
  const bytes = new TextEncoder().encode(JSON.stringify(parts));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Writes the cache of `loaded` (what `loadAgents(agents)` returned); the build calls it. */
export async function writeAgentCache(
  agents: readonly AgentConfig[],
  loaded: readonly LoadedAgent[],
  root: URL,
): Promise<boolean> {
  const path = new URL(AGENT_CACHE_PATH, root);
  const key = await cacheKey(agents, root);
  if (!key) {
    await Deno.remove(path).catch(() => {});
    return false;
  }
  const file: CacheFile = { key, operations: loaded.map((one) => one.operations) };
  await Deno.mkdir(new URL(".", path), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(file));
  return true;
}

/** The agents with their cached operations, or null when the cache is missing or stale. */
export async function cachedAgents(
  agents: readonly AgentConfig[],
  root: URL,
): Promise<LoadedAgent[] | null> {
  let file: CacheFile;
  try {
    file = JSON.parse(await Deno.readTextFile(new URL(AGENT_CACHE_PATH, root)));
  } catch {
    return null;
  }
  if (file.operations?.length !== agents.length) return null;
  if (file.key !== await cacheKey(agents, root)) return null;
  return agents.map((agent, i) => ({ agent, operations: file.operations[i] }));
}
