/**
 * The layer table (written in docs/architecture.md) and the two checks the import-graph test
 * makes against it: no import points up or across sides, and no import cycle.
 */
import type { ImportEdge } from "./import_graph.ts";

/** Which runtime a layer's modules run in; decides what they may import besides the rank. */
export type Side = "shared" | "server" | "browser";

/** One row of the layer table. */
export interface Layer {
  /** Bottom is 1; an import may point to the same rank or below. */
  rank: number;
  name: string;
  side: Side;
  /** Folder prefixes (ending in "/") or file paths, relative to the project root. */
  paths: string[];
}

const BEGIN = "<!-- layers:begin -->";
const END = "<!-- layers:end -->";
const SIDES: readonly Side[] = ["shared", "server", "browser"];

/**
 * Reads the table between `<!-- layers:begin -->` and `<!-- layers:end -->`: one row per layer,
 * `| <rank> <name> | <side> | <paths in backticks> | <what> |`.
 */
export function parseLayerTable(markdown: string): Layer[] {
  const begin = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (begin < 0 || end < begin) {
    throw new Error(`No layer table: expected a table between "${BEGIN}" and "${END}".`);
  }
  const layers: Layer[] = [];
  for (const line of markdown.slice(begin + BEGIN.length, end).split("\n")) {
    const cells = line.trim().replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim());
    const head = /^(\d+)\s+(.+)$/.exec(cells[0] ?? "");
    if (!head) continue;
    const side = cells[1] as Side;
    if (!SIDES.includes(side)) {
      throw new Error(`Layer "${head[2]}": side "${cells[1]}" is not one of ${SIDES.join(", ")}.`);
    }
    const paths = [...(cells[2] ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    if (paths.length === 0) throw new Error(`Layer "${head[2]}" lists no paths.`);
    layers.push({ rank: Number(head[1]), name: head[2], side, paths });
  }
  if (layers.length === 0) throw new Error("The layer table has no rows.");
  return layers;
}

/** The layer of a module: the row with the longest matching path, or null when none matches. */
export function layerOf(path: string, layers: Layer[]): Layer | null {
  let best: Layer | null = null;
  let bestLength = -1;
  for (const layer of layers) {
    for (const prefix of layer.paths) {
      const matches = prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix;
      if (matches && prefix.length > bestLength) {
        best = layer;
        bestLength = prefix.length;
      }
    }
  }
  return best;
}

/** An import the table forbids, or a module the table does not place. */
export interface LayerViolation {
  from: string;
  to: string;
  reason: string;
}

/**
 * The imports that break the table. An import may point to the same rank or below; shared
 * modules import only shared ones; browser modules import no server module; server modules
 * import browser ones (to render them) only from the top layer.
 */
export function checkLayers(
  modules: string[],
  edges: ImportEdge[],
  layers: Layer[],
): LayerViolation[] {
  const violations: LayerViolation[] = [];
  for (const module of modules) {
    if (!layerOf(module, layers)) {
      violations.push({ from: module, to: module, reason: "not in the layer table" });
    }
  }
  const top = Math.max(...layers.map((layer) => layer.rank));
  for (const edge of edges) {
    const from = layerOf(edge.from, layers);
    const to = layerOf(edge.to, layers);
    if (!from || !to) continue;
    const reason = edgeProblem(from, to, top);
    if (reason) violations.push({ from: edge.from, to: edge.to, reason });
  }
  return violations;
}

function edgeProblem(from: Layer, to: Layer, top: number): string | null {
  if (to.rank > from.rank) return `upward: ${from.name} (${from.rank}) → ${to.name} (${to.rank})`;
  if (from.side === "shared" && to.side !== "shared") {
    return `shared ${from.name} → ${to.side} ${to.name}`;
  }
  if (from.side === "browser" && to.side === "server") {
    return `browser ${from.name} → server ${to.name}`;
  }
  if (from.side === "server" && to.side === "browser" && from.rank !== top) {
    return `server ${from.name} → browser ${to.name} below the top layer`;
  }
  return null;
}

/**
 * The import cycles: each strongly connected component of more than one module (Tarjan's
 * algorithm, iterative so a deep graph cannot overflow the stack), its modules sorted.
 */
export function findCycles(modules: string[], edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(modules.map((module) => [module, []]));
  for (const edge of edges) next.get(edge.from)?.push(edge.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const start of modules) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; child: number }> = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = next.get(frame.node) ?? [];
      if (frame.child < targets.length) {
        const target = targets[frame.child++];
        if (!next.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) cycles.push(component.sort());
      }
    }
  }
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}
