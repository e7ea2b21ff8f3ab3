import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { answerSets, measure } from "./eval_sites.ts";

Deno.test("eval:sites: every set's corpus, questions and judgements are in the repository", () => {
  const sets = answerSets();
  assert.equal(new Set(sets.map((s) => s.name)).size, sets.length, "names are unique");
  for (const s of sets) {
    for (const path of [s.corpus, s.queries, s.qrels, s.offtopic].filter(Boolean)) {
      assert.ok(existsSync(path!), `${s.name}: ${path} is missing`);
    }
  }
});

Deno.test("eval:sites: one set's answers and retrieval, each question's answer written", async () => {
  const details = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const set = answerSets().find((s) => s.name === "debfaq-en")!;
    const figures = await measure(set, details);
    const lines = readFileSync(details, "utf8").trim().split("\n");
    assert.equal(lines.length, 24);
    assert.ok(figures.gold > 0 && figures.gold < 1, String(figures.gold));
    assert.ok(figures.ndcg10 > 0.5 && figures.ndcg10 < 1, String(figures.ndcg10));
    assert.equal(figures.offTopicRefused, null);
  } finally {
    await Deno.remove(details);
  }
});
