/**
 * Reads the real import graph of the project's own modules with `deno info --json`, so the
 * graph is what Deno resolves (import map, `@/` alias, type-only and dynamic imports), not a
 * guess from a regular expression.
 */

/** One import of one module of ours by another, paths relative to the project root. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`: still an edge, since a lower layer must not even name a type above it. */
  typeOnly: boolean;
  /** `import("…")` with a literal specifier. */
  dynamic: boolean;
}

/** Options of {@linkcode readImportGraph}. */
export interface ReadImportGraphOptions {
  /** The project root: holds deno.json; every path in the result is relative to it. */
  root: string;
  /** Files and folders (relative to root) whose modules make up the graph. */
  include: string[];
  /** A module whose relative path matches is left out (tests may import anything). */
  exclude?: (path: string) => boolean;
}

const SOURCE = /\.(ts|tsx|js|jsx|mts)$/;

/** The modules of ours under `include`, sorted, relative to root. */
export async function listModules(options: ReadImportGraphOptions): Promise<string[]> {
  const found: string[] = [];
  for (const entry of options.include) {
    await collect(options.root, entry, found);
  }
  return found.filter((path) => !options.exclude?.(path)).sort();
}

async function collect(root: string, path: string, into: string[]): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(`${root}/${path}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (info.isFile) {
    if (SOURCE.test(path)) into.push(path);
    return;
  }
  for await (const entry of Deno.readDir(`${root}/${path}`)) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    await collect(root, `${path}/${entry.name}`, into);
  }
}

interface InfoDependency {
  specifier: string;
  isDynamic?: boolean;
  code?: { specifier: string };
  type?: { specifier: string };
}

interface InfoModule {
  specifier: string;
  dependencies?: InfoDependency[];
  error?: string;
}

/**
 * Every edge between the listed modules. Runs `deno info --json` once, on a temporary root
 * module that imports them all, with the project's deno.json for resolution.
 */
export async function readImportGraph(
  options: ReadImportGraphOptions,
): Promise<{ modules: string[]; edges: ImportEdge[] }> {
  const root = await Deno.realPath(options.root);
  const modules = await listModules({ ...options, root });
  const rootUrl = new URL(`file://${root}/`);
  const dir = await Deno.makeTempDir({ prefix: "import_graph_" });
  try {
    const entry = `${dir}/all.ts`;
    const lines = modules.map((path) => `import ${JSON.stringify(new URL(path, rootUrl).href)};`);
    await Deno.writeTextFile(entry, lines.join("\n") + "\n");
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", `${root}/deno.json`, entry],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) {
      throw new Error(`"deno info" failed: ${new TextDecoder().decode(output.stderr).trim()}`);
    }
    const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { modules: InfoModule[] };
    const known = new Set(modules);
    const relative = (specifier: string): string | null => {
      if (!specifier.startsWith(rootUrl.href)) return null;
      const path = decodeURIComponent(specifier.slice(rootUrl.href.length));
      return known.has(path) ? path : null;
    };
    const edges: ImportEdge[] = [];
    for (const module of info.modules) {
      const from = relative(module.specifier);
      if (from === null) continue;
      if (module.error) throw new Error(`Cannot read "${from}": ${module.error}`);
      for (const dependency of module.dependencies ?? []) {
        const target = dependency.code?.specifier ?? dependency.type?.specifier;
        const to = target ? relative(target) : null;
        if (to === null || to === from) continue;
        edges.push({
          from,
          to,
          typeOnly: dependency.code === undefined,
          dynamic: dependency.isDynamic === true,
        });
      }
    }
    return { modules, edges };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
