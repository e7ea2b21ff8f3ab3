/** The project's own graph and table, as the import-graph test and `deno task lint:shape` read them. */
import { readImportGraph } from "./import_graph.ts";
import { checkLayers, findCycles, type LayerViolation, parseLayerTable } from "./layers.ts";

/** Where the app's modules live; tests (`tests/`, `*_test.ts`) may import anything and are left out. */
export const PROJECT_INCLUDE = [
  "lib",
  "routes",
  "islands",
  "components",
  "scripts",
  "main.ts",
  "dev.ts",
  "fresh.config.ts",
  "fresh.gen.ts",
];

/** True for a test module or a test's data. */
export function isTestModule(path: string): boolean {
  return /_test\.tsx?$/.test(path) || path.includes("/testdata/") || path.startsWith("tests/");
}

/** What the import-graph check finds in one project tree. */
export interface ShapeReport {
  modules: number;
  edges: number;
  violations: LayerViolation[];
  cycles: string[][];
}

/** Reads the layer table from `<root>/docs/architecture.md` and checks the tree's imports against it. */
export async function checkProjectShape(root: string): Promise<ShapeReport> {
  const table = parseLayerTable(await Deno.readTextFile(`${root}/docs/architecture.md`));
  const graph = await readImportGraph({ root, include: PROJECT_INCLUDE, exclude: isTestModule });
  return {
    modules: graph.modules.length,
    edges: graph.edges.length,
    violations: checkLayers(graph.modules, graph.edges, table),
    cycles: findCycles(graph.modules, graph.edges),
  };
}

/** One line per violation, `from → to (reason)`, as the known-violations list spells them. */
export function violationKey(violation: LayerViolation): string {
  return `${violation.from} → ${violation.to}`;
}
