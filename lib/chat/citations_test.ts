import assert from "node:assert/strict";
import fc from "fast-check";
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

// [text, valid numbers, filtered text, counts as [valid, invalid]]
const MORE: [string, string[], string, [number, number]][] = [
  ["a [1][9] b [9][1]", ["1"], "a [1] b[1]", [2, 2]],
  ["a[9]b", [], "ab", [0, 1]],
  ["2024 [9], e [12]", ["12"], "2024, e [12]", [1, 1]],
  ["nota [1000] e [1234", [], "nota [1000] e [1234", [0, 0]],
  ["Fim  [123", [], "Fim", [0, 0]],
  ["[4", [], "", [0, 0]],
  ["Fim [ ", [], "Fim [ ", [0, 0]],
  ["Fim [7 e", [], "Fim [7 e", [0, 0]],
  ["   ", [], "   ", [0, 0]],
  // At most 16 blanks go with a removed citation, however the text is cut.
  [`a${" ".repeat(20)}[9].`, [], `a${" ".repeat(4)}.`, [0, 1]],
  [`a${" ".repeat(20)}[9`, [], `a${" ".repeat(4)}`, [0, 0]],
];

/** The filtered text and counts of `deltas`, checking that no empty delta is sent. */
function filterDeltas(deltas: string[], valid: string[]) {
  const { out, counts } = run([
    { type: "text-start", id: "t" },
    ...deltas.map(delta),
    { type: "text-end", id: "t" },
    { type: "finish" },
  ], valid);
  assert.ok(out.every((c) => c.type !== "text-delta" || c.delta !== ""), "no empty delta");
  return { text: out.flatMap((c) => c.type === "text-delta" ? [c.delta] : []).join(""), counts };
}

Deno.test("citationFilter: more cases and their counts, cut at every one and two positions and per character", () => {
  for (const [text, valid, expected, [v, i]] of MORE) {
    const splits = [[text], [...text]];
    for (let a = 0; a <= text.length; a++) {
      for (let b = a; b <= text.length; b++) {
        splits.push([text.slice(0, a), text.slice(a, b), text.slice(b)]);
      }
    }
    for (const deltas of splits) {
      const label = JSON.stringify(deltas);
      const got = filterDeltas(deltas, valid);
      assert.equal(got.text, expected, label);
      assert.deepEqual(got.counts, { valid: v, invalid: i }, label);
    }
  }
});

Deno.test("citationFilter: text and counts do not depend on the cuts (property)", () => {
  const piece = fc.constantFrom(
    ..."aé \t\n[]19.".split(""),
    "12",
    "[1]",
    "[9]",
    " [9]",
    " [1]",
    " ".repeat(17),
  );
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 30 }).map((p) => p.join("")),
      fc.array(fc.nat(), { maxLength: 8 }),
      (text, cuts) => {
        const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const deltas = [0, ...at].map((from, k) => text.slice(from, [...at, text.length][k]));
        assert.deepEqual(filterDeltas(deltas, ["1"]), filterDeltas([text], ["1"]));
      },
    ),
    { numRuns: 2000, seed: 11 },
  );
});

Deno.test("citationFilter: two text parts hold their own pending text", () => {
  const { out } = run([
    { type: "text-start", id: "a" },
    { type: "text-delta", id: "a", delta: "um [" },
    { type: "text-start", id: "b" },
    { type: "text-delta", id: "b", delta: "dois " },
    { type: "text-delta", id: "a", delta: "9] fim" },
    { type: "text-delta", id: "b", delta: "[1]" },
    { type: "text-end", id: "a" },
    { type: "text-end", id: "b" },
  ], ["1"]);
  const part = (id: string) =>
    out.flatMap((c) => c.type === "text-delta" && c.id === id ? [c.delta] : []).join("");
  assert.equal(part("a"), "um fim");
  assert.equal(part("b"), "dois [1]");
});

const ANSWER_WITH_CODE = "Take the first item with `items[0]` [1], or:\n\n" +
  "```py\nprint(items[0], grid[2][3])\n```\n\n" +
  "~~~\nrows[9]\n~~~\n" +
  "A ``span with ` and [4]`` stays; outside it [4] goes and [2] stays.";
const CLEANED = "Take the first item with `items[0]` [1], or:\n\n" +
  "```py\nprint(items[0], grid[2][3])\n```\n\n" +
  "~~~\nrows[9]\n~~~\n" +
  "A ``span with ` and [4]`` stays; outside it goes and [2] stays.";

const textOf = (out: UIMessageChunk[]) =>
  out.flatMap((c) => c.type === "text-delta" ? [c.delta] : []).join("");

Deno.test("citationFilter: an index in code is code, not a citation (items[0] stayed items)", () => {
  const { out, counts } = run([
    { type: "text-start", id: "t" },
    delta(ANSWER_WITH_CODE),
    { type: "text-end", id: "t" },
  ], ["1", "2"]);
  assert.equal(textOf(out), CLEANED);
  assert.deepEqual(counts, { valid: 2, invalid: 1 });
});

Deno.test("citationFilter: code is told apart however the answer is split into deltas", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 1, max: ANSWER_WITH_CODE.length - 1 }), { maxLength: 30 }),
      (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), ANSWER_WITH_CODE.length];
        const deltas = at.slice(1).map((end, i) => delta(ANSWER_WITH_CODE.slice(at[i], end)));
        const { out, counts } = run([
          { type: "text-start", id: "t" },
          ...deltas,
          { type: "text-end", id: "t" },
        ], ["1", "2"]);
        assert.equal(textOf(out), CLEANED);
        assert.deepEqual(counts, { valid: 2, invalid: 1 });
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("citationFilter: a code span never closed ends at a blank line", () => {
  const { out } = run([
    { type: "text-start", id: "t" },
    delta("A stray ` here.\n\nSee [7] and [1]."),
    { type: "text-end", id: "t" },
  ], ["1"]);
  assert.equal(textOf(out), "A stray ` here.\n\nSee and [1].");
});
