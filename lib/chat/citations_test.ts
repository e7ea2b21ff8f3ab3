import assert from "node:assert/strict";
import type { UIMessageChunk } from "ai";
import { type CitationCounts, citationFilter } from "./citations.ts";

function run(chunks: UIMessageChunk[], valid: string[] = []) {
  const counts: CitationCounts = { valid: 0, invalid: 0 };
  const filter = citationFilter(counts, new Set(valid));
  const out: UIMessageChunk[] = [];
  for (const chunk of chunks) filter(chunk, (c) => out.push(c));
  return { out, counts };
}

const delta = (d: string): UIMessageChunk => ({ type: "text-delta", id: "t", delta: d });

Deno.test("citationFilter: removes unknown numbers, keeps known ones across split deltas", () => {
  const { out, counts } = run([
    { type: "text-start", id: "t" },
    delta("Harmony Day"),
    delta(" is in March ["),
    delta("1] and ["),
    delta(""),
    delta("7"),
    delta("]."),
    delta(" See ["),
    { type: "text-end", id: "t" },
    { type: "finish" },
  ], ["1"]);
  const text = out.flatMap((c) => c.type === "text-delta" ? [c.delta] : []).join("");
  assert.equal(text, "Harmony Day is in March [1] and. See [");
  assert.deepEqual(counts, { valid: 1, invalid: 1 });
  // Text without "[" goes out as it came; the counts come just before `finish`.
  assert.deepEqual(out[1], delta("Harmony Day"));
  assert.deepEqual(out.at(-2), {
    type: "message-metadata",
    messageMetadata: { citations: { valid: 1, invalid: 1 } },
  });
  assert.equal(out.at(-1)?.type, "finish");
});

Deno.test("citationFilter: numbers of sources that streamed by are valid; abort gets the counts too", () => {
  const { out, counts } = run([
    { type: "source-url", sourceId: "2", url: "https://example.org/a" },
    { type: "text-start", id: "t" },
    delta("See [2][3]"),
    { type: "abort" },
  ]);
  const text = out.flatMap((c) => c.type === "text-delta" ? [c.delta] : []).join("");
  assert.equal(text, "See [2]");
  assert.deepEqual(counts, { valid: 1, invalid: 1 });
  assert.deepEqual(out.at(-2), {
    type: "message-metadata",
    messageMetadata: { citations: { valid: 1, invalid: 1 } },
  });
  assert.equal(out.at(-1)?.type, "abort");
});

/** The text the filter lets through for `text` cut into deltas at `cuts`. */
function filtered(text: string, cuts: number[], valid = ["1"]): string {
  const bounds = [0, ...cuts, text.length];
  const chunks: UIMessageChunk[] = [{ type: "text-start", id: "t" }];
  for (let i = 1; i < bounds.length; i++) chunks.push(delta(text.slice(bounds[i - 1], bounds[i])));
  chunks.push({ type: "text-end", id: "t" });
  return run(chunks, valid).out.flatMap((c) => c.type === "text-delta" ? [c.delta] : []).join("");
}

const GAPS: Array<[string, string]> = [
  ["Veja [1] e [9]. Também [8] e", "Veja [1] e. Também e"],
  ["Veja [2] e [3].", "Veja e."],
  ["Fim [1] [7]", "Fim [1]"],
  ["Texto\n[9] segue", "Texto\n segue"],
  ["Ainda aberto [7", "Ainda aberto"],
  ["Colchete [x e [", "Colchete [x e ["],
  ["Lista [1, 2]", "Lista [1, 2]"],
  ["Espaços   [4]  finais  ", "Espaços  finais  "],
];

Deno.test("citationFilter: a removed citation takes its blanks along; an unclosed one at the end is dropped", () => {
  for (const [text, expected] of GAPS) assert.equal(filtered(text, []), expected, text);
});

Deno.test("citationFilter: the result does not depend on where the deltas are cut", () => {
  for (const [text, expected] of GAPS) {
    for (let i = 0; i <= text.length; i++) {
      assert.equal(filtered(text, [i]), expected, `${JSON.stringify(text)} cut at ${i}`);
      for (let j = i; j <= text.length; j += 3) {
        assert.equal(filtered(text, [i, j]), expected, `${JSON.stringify(text)} cut at ${i}, ${j}`);
      }
    }
  }
});
