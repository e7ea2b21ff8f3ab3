/**
 * `deno task lint:shape`: the import graph against the layer table of docs/architecture.md
 * (upward or cross-side imports, cycles) and the functions in lib/ over 80 lines. Exits 1
 * while any of them is left; a long function with a `// long-function: <reason>` marker on the
 * line above its declaration is listed with its reason and accepted.
 */
import { checkProjectShape, violationKey } from "./shape/project.ts";
import { findLongFunctions, FUNCTION_LINE_LIMIT } from "./shape/function_length.ts";

const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const shape = await checkProjectShape(root);
const functions = await findLongFunctions(root, ["lib/"]);
const unmarked = functions.filter((fn) => fn.reason === null);

console.log(`Import graph: ${shape.modules} modules, ${shape.edges} imports.`);
console.log(`Imports against the layer table: ${shape.violations.length}`);
for (const violation of shape.violations) {
  console.log(`  ${violationKey(violation)}  (${violation.reason})`);
}
console.log(`Import cycles: ${shape.cycles.length}`);
for (const cycle of shape.cycles) console.log(`  ${cycle.join(" ↔ ")}`);
console.log(
  `Functions in lib/ over ${FUNCTION_LINE_LIMIT} lines: ${functions.length} ` +
    `(${unmarked.length} without a "// long-function:" reason)`,
);
for (const fn of functions) {
  const why = fn.reason === null ? "" : `  — kept whole: ${fn.reason}`;
  console.log(`  ${String(fn.length).padStart(4)}  ${fn.file}:${fn.line}  ${fn.name}${why}`);
}
if (shape.violations.length > 0 || shape.cycles.length > 0 || unmarked.length > 0) Deno.exit(1);
