import assert from "node:assert/strict";
import type { UIMessageChunk } from "ai";
import { type CitationCounts, filterCitations } from "./citations.ts";

async function run(chunks: UIMessageChunk[], valid: string[] = []) {
  const counts: CitationCounts = { valid: 0, invalid: 0 };
  const source = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  const out: UIMessageChunk[] = [];
  for await (const chunk of filterCitations(source, counts, new Set(valid))) out.push(chunk);
  return { out, counts };
}

const delta = (d: string): UIMessageChunk => ({ type: "text-delta", id: "t", delta: d });

Deno.test("filterCitations: removes unknown numbers, keeps known ones across split deltas", async () => {
  const { out, counts } = await run([
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

Deno.test("filterCitations: cancelling it cancels the source", async () => {
  let cancelled: unknown;
  const source = new ReadableStream<UIMessageChunk>({
    pull(c) {
      c.enqueue(delta("x"));
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  const reader = filterCitations(source, { valid: 0, invalid: 0 }).getReader();
  await reader.read();
  await reader.cancel("stop");
  assert.equal(cancelled, "stop");
});
