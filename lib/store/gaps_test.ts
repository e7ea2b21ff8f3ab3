import assert from "node:assert/strict";
import { GAP_RING, listGaps, MAX_QUESTION, recordGap } from "./gaps.ts";

Deno.test("gaps: the ring keeps the newest GAP_RING records, questions cut", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const total = GAP_RING + 5;
    for (let i = 0; i < total; i++) {
      await recordGap(kv, {
        at: i,
        chatId: "c1",
        question: i === total - 1 ? "x".repeat(MAX_QUESTION + 50) : `pergunta ${i}?`,
        reason: "not-covered",
        lang: "pt",
      });
    }
    const gaps = await listGaps(kv);
    assert.equal(gaps.length, GAP_RING);
    assert.equal(gaps[0].at, total - 1);
    assert.equal(gaps.at(-1)!.at, 5);
    assert.equal(gaps[0].question.length, MAX_QUESTION);
  } finally {
    kv.close();
  }
});

Deno.test("gaps: parallel writers never take the same slot", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) =>
          recordGap(kv, { at: i, chatId: "c", question: `q${i}`, reason: "stopped", lang: "en" }),
      ),
    );
    assert.equal((await listGaps(kv)).length, 20);
  } finally {
    kv.close();
  }
});
