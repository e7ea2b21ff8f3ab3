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
    delta("Harmony Day "),
    delta("is in March ["),
    delta("1] and ["),
    delta(""),
    delta("7"),
    delta("]."),
    delta(" See ["),
    { type: "text-end", id: "t" },
    { type: "finish" },
  ], ["1"]);
  const text = out.flatMap((c) => c.type === "text-delta" ? [c.delta] : []).join("");
  assert.equal(text, "Harmony Day is in March [1] and . See [");
  assert.deepEqual(counts, { valid: 1, invalid: 1 });
  // Text without "[" goes out as it came; the counts come just before `finish`.
  assert.deepEqual(out[1], delta("Harmony Day "));
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
