import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyPlan, planImport, readManifest } from "./manifest_update.ts";
import type { ImportedDoc } from "./types.ts";
import { tempDir } from "@/tests/support/temp.ts";

const doc = (origin: string, markdown: string): ImportedDoc => ({
  origin,
  url: `https://s.example/${origin}`,
  title: origin,
  lang: "pt",
  license: "CC0",
  source: "s",
  markdown,
  verbatim: false,
});

Deno.test("a failed write leaves the manifest and the folder exactly as they were", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "manifest.json"), "[]\n");
  const first = await planImport([], [doc("a", "# A\n\num\n")], {
    from: "x",
    prefix: "s",
    keep: new Set(),
  });
  applyPlan(dir, first);
  const before = readFileSync(join(dir, "manifest.json"), "utf8");
  const next = await planImport(readManifest(dir), [doc("a", "# A\n\ndois\n"), doc("b", "# B\n")], {
    from: "x",
    prefix: "s",
    keep: new Set(),
  });
  // A folder where the manifest's temporary file goes: the write fails after the new files.
  const blocker = join(dir, `manifest.json.tmp-${Deno.pid}`);
  mkdirSync(join(blocker, "x"), { recursive: true });
  const files = readdirSync(dir, { recursive: true }).sort();
  assert.throws(() => applyPlan(dir, next), /EISDIR|directory/i);
  assert.equal(readFileSync(join(dir, "manifest.json"), "utf8"), before);
  assert.deepEqual(readdirSync(dir, { recursive: true }).sort(), files);
});
