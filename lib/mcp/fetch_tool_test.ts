import assert from "node:assert/strict";
import { splitMarkdown } from "./fetch_tool.ts";

Deno.test("splitMarkdown: parts stay under the bound, cut at blank lines, and join back", () => {
  const text = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} `.repeat(20)).join("\n\n");
  const parts = splitMarkdown(text, 1000);
  assert.ok(parts.length > 1);
  assert.ok(parts.every((p) => p.length <= 1000));
  assert.ok(parts.slice(0, -1).every((p) => p.endsWith("\n\n")));
  assert.equal(parts.join(""), text);
  assert.deepEqual(splitMarkdown("", 10), [""]);
  // No blank line to cut at: a hard cut, nothing lost.
  assert.equal(splitMarkdown("x".repeat(25), 10).join(""), "x".repeat(25));
});
