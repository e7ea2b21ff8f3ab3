/**
 * The app's real imports against the layer table of docs/architecture.md: no import points up
 * or across sides, and no import forms a cycle. `deno task lint:shape` prints the same check.
 */
import assert from "node:assert/strict";
import { checkProjectShape, violationKey } from "../scripts/shape/project.ts";

Deno.test("imports follow the layer table and form no cycle", async () => {
  const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
  const report = await checkProjectShape(root);
  assert.ok(
    report.modules > 100,
    `Only ${report.modules} modules found: is the include list right?`,
  );
  const found = [
    ...report.violations.map((v) => `${violationKey(v)}  (${v.reason})`),
    ...report.cycles.map((cycle) => `cycle: ${cycle.join(" ↔ ")}`),
  ];
  assert.deepEqual(
    found,
    [],
    "Imports against docs/architecture.md's layer table (fix the import or move the shared code down)",
  );
});
