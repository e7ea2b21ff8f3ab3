/**
 * Cold start (issue 16): the pages never load the chat stack. Walks the static module
 * graph (`deno info --json`, code imports only: `import type` and dynamic `import()` are not
 * loaded at start) from main.ts and from routes/index.tsx, and checks that the AI SDK, its
 * provider packages, zod and the OpenAPI parser are not in it. They are reached only through
 * the dynamic imports of lib/chat/lazy.ts and lib/models/provider_sdks.ts (which Deno loads
 * when they run: deno.json `lazy-dynamic-imports`), which the walk also checks.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** Packages a cold start must not evaluate. */
const HEAVY = [/^npm:\/ai@/, /^npm:\/@ai-sdk\//, /^npm:\/zod@/, /^npm:\/@apidevtools\//];

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier?: string }; isDynamic?: boolean }>;
}

interface Graph {
  /** Module → the code imports it loads with it (static) or on demand (dynamic). */
  edges: Map<string, { to: string; dynamic: boolean }[]>;
  root: string;
}

async function moduleGraph(entry: string): Promise<Graph> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
    redirects: Record<string, string>;
  };
  const resolve = (s: string) => info.redirects[s] ?? s;
  const edges = new Map<string, { to: string; dynamic: boolean }[]>();
  for (const m of info.modules) {
    edges.set(
      m.specifier,
      (m.dependencies ?? []).filter((d) => d.code?.specifier).map((d) => ({
        to: resolve(d.code!.specifier!),
        dynamic: d.isDynamic === true,
      })),
    );
  }
  return { edges, root: resolve(info.roots[0]) };
}

/** Every module the root loads at start (static code imports only). */
function reachable(graph: Graph): Set<string> {
  const seen = new Set([graph.root]);
  for (const at of seen) {
    for (const { to, dynamic } of graph.edges.get(at) ?? []) if (!dynamic) seen.add(to);
  }
  return seen;
}

/** Every heavy module reachable from the root, with the import chain that reaches it. */
function heavyReached(graph: Graph, followDynamic: boolean): string[] {
  const from = new Map<string, string | null>([[graph.root, null]]);
  const queue = [graph.root];
  while (queue.length) {
    const at = queue.shift()!;
    for (const { to, dynamic } of graph.edges.get(at) ?? []) {
      if ((dynamic && !followDynamic) || from.has(to)) continue;
      from.set(to, at);
      queue.push(to);
    }
  }
  const chains: string[] = [];
  for (const spec of from.keys()) {
    if (!HEAVY.some((re) => re.test(spec))) continue;
    const chain: string[] = [];
    for (let s: string | null | undefined = spec; s; s = from.get(s)) {
      chain.push(s.replace(ROOT.href, ""));
    }
    chains.push(chain.join(" ← "));
  }
  return chains;
}

for (const entry of ["main.ts", "routes/index.tsx"]) {
  Deno.test(`cold start: ${entry} does not load the AI SDK, providers, zod or the OpenAPI parser`, async () => {
    const graph = await moduleGraph(entry);
    assert.deepEqual(
      heavyReached(graph, false),
      [],
      "Statically imported from the pages' graph; load it through lib/chat/lazy.ts instead",
    );
  });
}

Deno.test("cold start: the search engine, the offline model and markdown load on first use", async () => {
  const graph = await moduleGraph("main.ts");
  const loaded = [...reachable(graph)];
  for (
    const late of [
      "lib/search/engine.ts",
      "lib/search/analyzer.ts",
      "lib/models/local_model.ts",
      "lib/client/markdown.ts",
      "lib/corpus/pages.ts",
      // The Postgres search and its client load on the first search, when it is configured.
      "lib/search/postgres/pg_search.ts",
      "lib/search/postgres/client.ts",
    ]
  ) {
    assert.ok(!loaded.includes(new URL(late, ROOT).href), `${late} is loaded at start`);
  }
  assert.ok(!loaded.some((s) => /^npm:\/postgres@/.test(s)), "the postgres client loads at start");
});

Deno.test("cold start: the walk finds the stack where it is imported (lib/chat/turn_http.ts)", async () => {
  const reached = heavyReached(await moduleGraph("lib/chat/turn_http.ts"), false)
    .map((chain) => chain.split(" ← ")[0]);
  for (const pkg of [/^npm:\/ai@/, /^npm:\/zod@/, /^npm:\/@apidevtools\//]) {
    assert.ok(reached.some((s) => pkg.test(s)), `${pkg} not reached: ${reached.join(", ")}`);
  }
});

Deno.test("cold start: the stack is still reachable from main.ts, through dynamic imports only", async () => {
  const reached = heavyReached(await moduleGraph("main.ts"), true).map((c) => c.split(" ← ")[0]);
  for (const pkg of [/^npm:\/ai@/, /^npm:\/@ai-sdk\/openai@/, /^npm:\/@apidevtools\//]) {
    assert.ok(reached.some((s) => pkg.test(s)), `${pkg} not reachable: ${reached.join(", ")}`);
  }
});

Deno.test("cold start: Deno loads dynamic imports when they run (deno.json lazy-dynamic-imports)", async () => {
  // Without it Deno prepares every import("…") it can see before main.ts runs: the chat
  // stack's and the islands' lazy chunks, which put the first page behind all of them.
  const { unstable } = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
    unstable?: string[];
  };
  assert.ok(unstable?.includes("lazy-dynamic-imports"), JSON.stringify(unstable));
});
