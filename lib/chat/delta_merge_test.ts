import assert from "node:assert/strict";
import type { UIMessageChunk } from "ai";
import { deltaMerger } from "./delta_merge.ts";

const text = (delta: string, id = "t1"): UIMessageChunk => ({ type: "text-delta", id, delta });
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A merger over `windowMs` and what it sent. */
function merger(windowMs: number) {
  const sent: UIMessageChunk[] = [];
  return { sent, merge: deltaMerger((chunk) => sent.push(chunk), windowMs) };
}

Deno.test("deltaMerger: the first delta goes out at once, the next ones in one chunk at the tick", async () => {
  const { sent, merge } = merger(30);
  merge.push(text("Olá"));
  assert.deepEqual(sent, [text("Olá")]);
  merge.push(text(", "));
  merge.push(text("mundo"));
  assert.equal(sent.length, 1, "held until the tick");
  await wait(60);
  assert.deepEqual(sent, [text("Olá"), text(", mundo")]);
});

Deno.test("deltaMerger: a delta after a pause longer than the window is not held", async () => {
  const { sent, merge } = merger(20);
  merge.push(text("a"));
  await wait(40);
  merge.push(text("b"));
  assert.deepEqual(sent, [text("a"), text("b")]);
});

Deno.test("deltaMerger: any other chunk sends the held deltas first, so the order is kept", () => {
  const { sent, merge } = merger(1_000);
  merge.push({ type: "text-start", id: "t1" });
  merge.push(text("a"));
  merge.push(text("b"));
  merge.push(text("c"));
  merge.push({ type: "text-end", id: "t1" });
  merge.push({ type: "finish" });
  assert.deepEqual(sent, [
    { type: "text-start", id: "t1" },
    text("abc"), // within the window of the chunk before
    { type: "text-end", id: "t1" },
    { type: "finish" },
  ]);
});

Deno.test("deltaMerger: reasoning merges too; other parts and provider metadata stay apart", () => {
  const { sent, merge } = merger(1_000);
  const signed: UIMessageChunk = {
    type: "reasoning-delta",
    id: "r1",
    delta: "x",
    providerMetadata: { google: { thoughtSignature: "sig" } },
  };
  merge.push({ type: "start" });
  merge.push({ type: "reasoning-delta", id: "r1", delta: "pen" });
  merge.push({ type: "reasoning-delta", id: "r1", delta: "so" });
  merge.push(signed);
  merge.push(text("a", "t1"));
  merge.push(text("b", "t2"));
  merge.push(text("c", "t2"));
  merge.flush();
  assert.deepEqual(sent, [
    { type: "start" },
    { type: "reasoning-delta", id: "r1", delta: "penso" },
    signed,
    text("a", "t1"),
    text("bc", "t2"),
  ]);
});

Deno.test("deltaMerger: flush sends what is held and stops its tick; window 0 merges nothing", async () => {
  const { sent, merge } = merger(50);
  merge.push(text("a"));
  merge.push(text("b"));
  merge.flush();
  assert.deepEqual(sent, [text("a"), text("b")]);
  merge.flush();
  await wait(80); // the tick that was due sends nothing more
  assert.equal(sent.length, 2);

  const none = merger(0);
  for (const d of ["a", "b", "c"]) none.merge.push(text(d));
  assert.deepEqual(none.sent, [text("a"), text("b"), text("c")]);
});

Deno.test("deltaMerger: streams share one clock and each gets its own text back", async () => {
  const streams = Array.from({ length: 5 }, () => merger(20));
  for (let k = 0; k < 40; k++) {
    streams.forEach(({ merge }, i) => merge.push(text(`${i}.${k} `)));
    if (k % 7 === 0) await wait(3);
  }
  await wait(50);
  streams.forEach(({ sent }, i) => {
    const joined = sent.map((c) => c.type === "text-delta" ? c.delta : "").join("");
    assert.equal(joined, Array.from({ length: 40 }, (_, k) => `${i}.${k} `).join(""));
    assert.ok(sent.length < 40, `stream ${i} was merged (${sent.length} chunks)`);
  });
});
