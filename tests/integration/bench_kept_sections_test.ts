import assert from "node:assert/strict";
import { keptSections } from "../bench/kept_sections.ts";

const OLD = [
  "# Benchmarks",
  "",
  "- Date: yesterday",
  "",
  "## Site search",
  "",
  "old figures",
  "",
  "## Offline model answers (by hand)",
  "",
  "| before | 0.87 |",
  "",
  "### A sub-heading stays inside its section",
  "",
  "_Run times: search_bench.ts 40 s._",
  "",
].join("\n");

Deno.test("a bench run keeps the hand-measured sections and replaces its own", () => {
  const kept = keptSections(OLD, ["## Site search\n\nnew figures"]);
  assert.deepEqual(kept, [
    "## Offline model answers (by hand)\n\n| before | 0.87 |\n\n### A sub-heading stays inside its section",
  ]);
});

Deno.test("a section a bench writes again is not kept twice", () => {
  assert.deepEqual(
    keptSections(OLD, ["## Site search\n\nx", "## Offline model answers (by hand)\n\ny"]),
    [],
  );
});
