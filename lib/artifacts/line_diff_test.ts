import assert from "node:assert/strict";
import { diffStats, lineDiff, sideBySide } from "./line_diff.ts";

const V1 = "<svg>\n<rect/>\n<circle/>\n</svg>\n";
const V3 = "<svg>\n<rect fill='red'/>\n<circle/>\n<text>3</text>\n</svg>";

Deno.test("line diff: unified lines with both numberings; a missing final newline is no change", () => {
  const lines = lineDiff(V1, V3);
  assert.deepEqual(lines, [
    { kind: "same", oldNo: 1, newNo: 1, text: "<svg>" },
    { kind: "del", oldNo: 2, newNo: null, text: "<rect/>" },
    { kind: "add", oldNo: null, newNo: 2, text: "<rect fill='red'/>" },
    { kind: "same", oldNo: 3, newNo: 3, text: "<circle/>" },
    { kind: "add", oldNo: null, newNo: 4, text: "<text>3</text>" },
    { kind: "same", oldNo: 4, newNo: 5, text: "</svg>" },
  ]);
  assert.deepEqual(diffStats(lines), { added: 2, removed: 1 });
  assert.deepEqual(lineDiff("a", "a\n"), [{ kind: "same", oldNo: 1, newNo: 1, text: "a" }]);
});

Deno.test("line diff: side by side pairs removals with the additions after them", () => {
  const rows = sideBySide(lineDiff("a\nb\nc\nd\n", "a\nB\nC2\nC3\nd\n"));
  assert.deepEqual(rows.map((r) => [r.left?.text ?? null, r.right?.text ?? null]), [
    ["a", "a"],
    ["b", "B"],
    ["c", "C2"],
    [null, "C3"],
    ["d", "d"],
  ]);
  assert.deepEqual(rows[3].right, { kind: "add", no: 4, text: "C3" });
});

Deno.test("line diff: identical and empty versions", () => {
  assert.deepEqual(diffStats(lineDiff(V1, V1)), { added: 0, removed: 0 });
  assert.deepEqual(lineDiff("", "x\n"), [{ kind: "add", oldNo: null, newNo: 1, text: "x" }]);
});
