/**
 * The app's real imports against the layer table of docs/architecture.md: no import points up
 * or across sides, and no import forms a cycle. `deno task lint:shape` prints the same check.
 */
import assert from "node:assert/strict";
import { checkProjectShape, violationKey } from "../scripts/shape/project.ts";

/**
 * Imports and cycles that break the table today and are being removed by the work in flight.
 * The list must match exactly: a new violation fails, and so does a fixed one still listed,
 * so whoever removes one deletes its line here. Empty it; never add to it.
 */
const KNOWN_VIOLATIONS: readonly string[] = [
  "lib/store/import_history.ts → lib/chat/title.ts",
];

Deno.test("imports follow the layer table and form no cycle", async () => {
  const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
  const report = await checkProjectShape(root);
  assert.ok(
    report.modules > 100,
    `Only ${report.modules} modules found: is the include list right?`,
  );
  const found = [
    ...report.violations.map(violationKey),
    ...report.cycles.map((cycle) => `cycle: ${cycle.join(" ↔ ")}`),
  ];
  const known = new Set(KNOWN_VIOLATIONS);
  const reasons = new Map(report.violations.map((v) => [violationKey(v), v.reason]));
  const added = found.filter((key) => !known.has(key)).map((key) =>
    reasons.has(key) ? `${key}  (${reasons.get(key)})` : key
  );
  const fixed = KNOWN_VIOLATIONS.filter((key) => !found.includes(key));
  assert.deepEqual(
    added,
    [],
    "Imports against docs/architecture.md's layer table (fix the import or move the shared code down)",
  );
  assert.deepEqual(fixed, [], "Fixed: delete these lines from KNOWN_VIOLATIONS");
});
