/**
 * `deno task build`: regenerates fresh.gen.ts, bundles the islands and the widget's scripts
 * (static/widget.js, static/widget_frame.js) and builds the search index
 * (build/search/index.bin: server-only, never under static/), after
 * checking the agents' OpenAPI specs (a bad one stops the build with its message).
 * Everything `deno task start` and Deno Deploy (its build command, `deno task deploy`) need.
 */
import config from "@/fresh.config.ts";
import type { AgentConfig } from "@/lib/agents/types.ts";
import { generateManifest } from "@/lib/http/manifest_gen.ts";
import { buildIslands } from "@/lib/islands/build.ts";
import { loadAgents } from "@/lib/tools/load_agents.ts";
import { buildWidget } from "@/lib/widget/build.ts";
import { writeAgentCache } from "@/lib/tools/agent_cache.ts";
import { ASSET_PREFIX_BYTES, assetHeaderLength, checkAssetHeader } from "@/lib/search/asset.ts";

const root = new URL("../", import.meta.url);

/** Writes fresh.gen.ts when its content changed; returns whether it did. */
export async function writeManifest(): Promise<boolean> {
  const text = await generateManifest(root);
  const path = new URL("fresh.gen.ts", root);
  const old = await Deno.readTextFile(path).catch(() => "");
  if (old === text) return false;
  await Deno.writeTextFile(path, text);
  return true;
}

/**
 * Deletes the search index that older builds wrote under static/, where it would be served
 * (with the text of internal documents) to anyone asking for /search/index.bin.
 */
export async function removeLegacyIndex(): Promise<boolean> {
  try {
    await Deno.remove(new URL("static/search/index.bin", root));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  // The folder held only the index (and its .gitignore): drop it when nothing else is left.
  await Deno.remove(new URL("static/search/.gitignore", root)).catch(() => {});
  await Deno.remove(new URL("static/search/", root)).catch(() => {});
  return true;
}

/**
 * Loads every configured agent's spec as the start will (files and URLs, tool names
 * across agents); returns the tool count per agent id. Throws `AgentConfigError`. With
 * `cache`, writes what it loaded to build/agents.json for the server's cold start.
 */
export async function checkAgentSpecs(
  agents: readonly AgentConfig[] = config.agents ?? [],
  options: { cache?: boolean } = {},
): Promise<Record<string, number>> {
  const loaded = await loadAgents(agents, { root });
  // What a cold server reads instead of validating the specs again (lib/tools/agent_cache.ts).
  if (options.cache) await writeAgentCache(agents, loaded, root);
  return Object.fromEntries(loaded.map(({ agent, operations }) => [agent.id, operations.length]));
}

async function newestMtime(dir: URL): Promise<number> {
  let newest = 0;
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) newest = Math.max(newest, await newestMtime(url));
    else newest = Math.max(newest, (await Deno.stat(url)).mtime?.getTime() ?? 0);
  }
  return newest;
}

/**
 * The newest modification time among the project's own modules that `deno task index` runs
 * (scripts/index_corpus.ts and what it imports, by Deno's module graph), or Infinity when the
 * graph cannot be read: then the index task itself says what is wrong.
 */
async function newestIndexModule(dir: URL): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "scripts/index_corpus.ts"],
    cwd: dir,
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!out.success) return Infinity;
  const { modules } = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string }[];
  };
  let newest = 0;
  for (const { specifier } of modules) {
    if (!specifier.startsWith(dir.href)) continue; // npm and remote modules are pinned
    const stat = await Deno.stat(new URL(specifier)).catch(() => null);
    newest = Math.max(newest, stat?.mtime?.getTime() ?? Infinity);
  }
  return newest;
}

/**
 * Whether `deno task dev` must rebuild build/search/index.bin: it is missing, older than a file
 * of corpus/ or a module the index task runs (a pull that changed the chunker), or unreadable
 * by this server — built by an older analyzer or format, which the server refuses to load, so
 * a pull that changed the analysis left the search unavailable.
 */
export async function indexIsStale(dir: URL = root): Promise<boolean> {
  const path = new URL("build/search/index.bin", dir);
  const asset = await Deno.stat(path).catch(() => null);
  if (!asset?.mtime) return true;
  if ((await newestMtime(new URL("corpus/", dir))) > asset.mtime.getTime()) return true;
  if ((await newestIndexModule(dir)) > asset.mtime.getTime()) return true;
  try {
    checkAssetHeader(await readAssetHead(path), asset.size);
    return false;
  } catch {
    return true;
  }
}

/** The asset's prefix and header only: a 100,000-passage site's asset is hundreds of MB. */
async function readAssetHead(path: URL): Promise<Uint8Array> {
  const file = await Deno.open(path);
  try {
    const prefix = await readUpTo(file, ASSET_PREFIX_BYTES);
    const rest = await readUpTo(file, assetHeaderLength(prefix));
    const head = new Uint8Array(prefix.length + rest.length);
    head.set(prefix);
    head.set(rest, prefix.length);
    return head;
  } finally {
    file.close();
  }
}

/** Up to `n` bytes from the file's position: fewer only at its end. */
async function readUpTo(file: Deno.FsFile, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let at = 0;
  while (at < n) {
    const read = await file.read(out.subarray(at));
    if (read === null) break;
    at += read;
  }
  return out.subarray(0, at);
}

/** The empty chat's suggested questions, read from the corpus once here, not at cold start. */
export async function writeSuggestions(): Promise<void> {
  const { docPages } = await import("@/lib/corpus/pages.ts");
  const { SUGGESTIONS_ASSET, suggestionsByLocale } = await import("@/lib/corpus/suggestions.ts");
  await Deno.mkdir(new URL(".", SUGGESTIONS_ASSET), { recursive: true });
  await Deno.writeTextFile(SUGGESTIONS_ASSET, JSON.stringify(await suggestionsByLocale(docPages)));
}

/** Runs a task of deno.json as a child process, failing loudly. */
async function runTask(name: string): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["task", "-q", name], cwd: root })
    .output();
  if (!out.success) throw new Error(`\`deno task ${name}\` failed.`);
}

if (import.meta.main) {
  const t0 = performance.now();
  try {
    const tools = await checkAgentSpecs(config.agents ?? [], { cache: true });
    const mcp = new Set((config.agents ?? []).filter((a) => a.kind === "mcp").map((a) => a.id));
    const list = Object.entries(tools).map(([id, n]) =>
      mcp.has(id) ? `${id} (MCP server: tools listed at run time)` : `${id} (${n} tools)`
    ).join(", ");
    console.log(`Agents checked: ${list || "none"}`);
  } catch (error) {
    console.error(`Build stopped: ${(error as Error).message}`);
    Deno.exit(1);
  }
  const changed = await writeManifest();
  console.log(`fresh.gen.ts ${changed ? "written" : "up to date"}`);
  if (await removeLegacyIndex()) {
    console.log("Removed static/search/index.bin (the index is in build/).");
  }
  const assets = await buildIslands(root);
  console.log(`Islands bundled: ${Object.keys(assets.islands).join(", ") || "none"}`);
  console.log(`Widget bundled: ${Object.keys(await buildWidget(root)).join(", ")}`);
  if (Deno.args.includes("--no-index")) console.log("Search index skipped (--no-index).");
  else await runTask("index");
  await writeSuggestions();
  console.log("Suggested questions written to build/suggestions.json");
  console.log(`Build done in ${Math.round(performance.now() - t0)} ms`);
}
