import assert from "node:assert/strict";
import { dismissGap, listDismissals, MAX_DISMISSALS, restoreGap } from "./gap_dismissals.ts";
import { OwnerAnswerInputError } from "./owner_answers.ts";

Deno.test("gap dismissals: kept once, listed newest first, restored; bounded", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const pizza = await dismissGap(kv, { question: " Vocês entregam pizza? ", lang: "pt" }, 1);
    assert.equal(pizza.question, "Vocês entregam pizza?");
    // A double submit keeps one; another language is another dismissal.
    assert.equal(
      (await dismissGap(kv, { question: "vocês  entregam pizza?", lang: "pt" }, 2)).id,
      pizza.id,
    );
    await dismissGap(kv, { question: "Vocês entregam pizza?", lang: "en" }, 3);
    assert.deepEqual((await listDismissals(kv)).map((d) => [d.lang, d.at]), [["en", 3], ["pt", 1]]);
    // Two tabs dismissed it at once: one restore brings the group back.
    const twin = { ...pizza, id: "twintwintwin", at: 2 };
    await kv.set(["gap_dismissals", twin.id], twin);
    assert.equal(await restoreGap(kv, pizza.id), true);
    assert.equal(await restoreGap(kv, pizza.id), false);
    assert.equal(await restoreGap(kv, "../other"), false);
    assert.equal((await listDismissals(kv)).length, 1);
    await assert.rejects(dismissGap(kv, { question: " ", lang: "pt" }, 4), OwnerAnswerInputError);
    for (let i = 1; i < MAX_DISMISSALS; i++) {
      await dismissGap(kv, { question: `Pergunta ${i}?`, lang: "pt" }, 10 + i);
    }
    await assert.rejects(
      dismissGap(kv, { question: "Mais uma?", lang: "pt" }, 9_999),
      /500 dismissed groups already/,
    );
  } finally {
    kv.close();
  }
});
