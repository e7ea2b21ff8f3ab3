import assert from "node:assert/strict";
import { findLongFunctions } from "./function_length.ts";

function fn(header: string, lines: number): string {
  return `${header} {\n${"  x++;\n".repeat(lines - 2)}}\n`;
}

Deno.test("functions over 80 lines are listed; the marker above the declaration gives the reason", async () => {
  const root = await Deno.makeTempDir({ prefix: "function_length_" });
  try {
    await Deno.mkdir(`${root}/lib`);
    await Deno.writeTextFile(
      `${root}/lib/a.ts`,
      "let x = 0;\n" +
        fn("export function fits()", 80) +
        fn("export function tooLong()", 81) +
        "// long-function: one state machine, read top to bottom\n" +
        fn("export const kept = () =>", 90) +
        "class C {\n" + fn("  method()", 82) + "}\n" +
        "// long-function: not directly above\n\n" + fn("function gap()", 81),
    );
    const found = await findLongFunctions(root, ["lib/"]);
    assert.deepEqual(
      found.map(({ name, line, length, reason }) => ({ name, line, length, reason })),
      [
        { name: "kept", line: 164, length: 90, reason: "one state machine, read top to bottom" },
        { name: "method", line: 255, length: 82, reason: null },
        { name: "tooLong", line: 82, length: 81, reason: null },
        { name: "gap", line: 340, length: 81, reason: null },
      ],
    );
    assert.ok(found.every((entry) => entry.file === "lib/a.ts"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
