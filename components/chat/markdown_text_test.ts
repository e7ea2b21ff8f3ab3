import assert from "node:assert/strict";
import { splitBlocks } from "./MarkdownText.tsx";
import { createMarkdown } from "@/lib/client/markdown.ts";

const DOC = [
  "# Título",
  "",
  "Um parágrafo [1].",
  "",
  "```ts",
  "const a = 1;",
  "",
  "const b = 2;",
  "```",
  "",
  "- item um",
  "",
  "  continuação do item",
  "- item dois",
  "",
  "| a | b |",
  "| - | - |",
  "| 1 | 2 |",
  "",
  "Fim.",
].join("\n");

Deno.test("splitBlocks: blocks join back to the text; fences and indented continuations stay whole", () => {
  const blocks = splitBlocks(DOC);
  assert.equal(blocks.join(""), DOC);
  assert.ok(blocks.some((b) => b.includes("const a = 1;\n\nconst b = 2;")), "a fence is one block");
  assert.ok(
    blocks.some((b) => b.includes("- item um\n\n  continuação do item")),
    "an indented continuation stays with its item",
  );
  assert.deepEqual(splitBlocks("sem quebra"), ["sem quebra"]);
  assert.deepEqual(splitBlocks("a\n\n"), ["a\n\n"]);
});

Deno.test("splitBlocks: rendering block by block gives the whole render's HTML", () => {
  const render = createMarkdown();
  const cite = (n: number) => n === 1 ? "#src-1" : null;
  const whole = render(DOC, cite);
  const byBlock = splitBlocks(DOC).map((b) => render(b, cite)).join("");
  assert.equal(byBlock, whole);
});
