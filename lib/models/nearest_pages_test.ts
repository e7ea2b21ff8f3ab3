import assert from "node:assert/strict";
import { nearestPages } from "./nearest_pages.ts";
import { buildExtractiveAnswer, isNotCoveredAnswer, notCoveredAnswer } from "./extractive.ts";
import { saysNotCovered } from "@/lib/eval/answer_metrics.ts";

const entry = (n: number, title: string, score: number, match: number) => ({
  n,
  title,
  url: `https://example.org/faq#${n}`,
  text: "Uma resposta qualquer.",
  score,
  match,
});

Deno.test("nearest pages: the entries whose own question holds two of the visitor's words", () => {
  const found = [
    entry(1, "FAQ › Como faço para converter tuplas em listas?", 8.2, 0.42),
    entry(2, "FAQ › Por que existem tipos de dados separados para tuplas e listas?", 7.9, 0.42),
    entry(3, "FAQ › Como funcionam listas?", 7.8, 0.42),
  ];
  assert.equal(
    nearestPages("tupla vs lista?", found, "pt"),
    "O mais próximo que encontrei: “Como faço para converter tuplas em listas?” [1] e " +
      "“Por que existem tipos de dados separados para tuplas e listas?” [2].",
  );
});

Deno.test("nearest pages: none for a shared word, a weak match or a page far behind", () => {
  // One word in common is a collision as often as not.
  const fast = [entry(1, "FAQ › How fast are exceptions?", 5, 0.5)];
  assert.equal(nearestPages("How can I lose weight fast?", fast, "en"), null);
  // Too little of the question on the site and the page.
  const weak = [entry(1, "FAQ › How do I copy an object?", 5, 0.3)];
  assert.equal(nearestPages("How do I clone an object, a deep copy?", weak, "en"), null);
  // Without `match` (another search), nothing is guessed.
  const unknown = [{ n: 1, title: "FAQ › How do I copy an object?", score: 5 }];
  assert.equal(nearestPages("How do I clone an object, a deep copy?", unknown, "en"), null);
  // A second page far behind the first is not named with it.
  const behind = [
    entry(1, "FAQ › How do I copy an object?", 8, 0.5),
    entry(2, "FAQ › How do I copy an object's attributes?", 3, 0.5),
  ];
  assert.equal(
    nearestPages("How do I clone an object, a deep copy?", behind, "en"),
    "The closest I found: “How do I copy an object?” [1].",
  );
});

Deno.test("nearest pages: a refusal that names them is still 'not covered', for the eval and the gaps", () => {
  const answer = buildExtractiveAnswer("How do I clone an object, a deep copy?", [
    entry(1, "FAQ › How do I copy an object in Python?", 8, 0.5),
  ]);
  assert.equal(
    answer,
    "The site does not cover that. The closest I found: “How do I copy an object in Python?” [1]. " +
      "Can I look up something else on the site?",
  );
  assert.ok(isNotCoveredAnswer(answer));
  assert.ok(saysNotCovered(answer, 1));
  assert.ok(isNotCoveredAnswer(notCoveredAnswer("pt")));
  assert.ok(!isNotCoveredAnswer("“Use copy.deepcopy.” [1]"));
});
