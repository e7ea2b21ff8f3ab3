import assert from "node:assert/strict";
import { appendText } from "./append_text.ts";

/** Deltas as a model streams them: short, some empty, some two-byte, some astral. */
function deltas(count: number, seed: number): string[] {
  const pieces = ["a", " palavra", "ção", "", "😀", " “citação” [1]", "\n\n", "x".repeat(40), "é"];
  let s = seed;
  return Array.from({ length: count }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return pieces[s % pieces.length];
  });
}

Deno.test("appendText gives the concatenated text after every delta", () => {
  let text = "";
  let expected = "";
  for (const delta of deltas(5_000, 7)) {
    text = appendText(text, delta);
    expected += delta;
    // Every step, including those that flatten (each 256 characters, then an eighth).
    assert.equal(text.length, expected.length);
  }
  assert.equal(text, expected);
});

Deno.test("appendText keeps a delta that crosses several flatten steps whole", () => {
  const long = "ã".repeat(1_000);
  assert.equal(appendText("abc", long), "abc" + long);
  assert.equal(appendText("", ""), "");
  assert.equal(appendText("x".repeat(255), "y"), "x".repeat(255) + "y");
});
