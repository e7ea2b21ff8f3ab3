import assert from "node:assert/strict";
import {
  containsGold,
  goldRecall,
  missReason,
  saysNotCovered,
  summarize,
  wordCount,
} from "./answer_metrics.ts";
import { notCoveredAnswer } from "@/lib/models/extractive.ts";

Deno.test("containsGold matches folded word runs across citation markers", () => {
  const answer = "Segundo o site: O prazo é de 30 dias [1]. Depois, a Coordenação decide. [2]";
  assert.equal(containsGold(answer, ["prazo e de 30 DIAS"]), true);
  assert.equal(containsGold(answer, ["30 dias. Depois"]), true);
  assert.equal(containsGold(answer, ["prazo de 30 dias"]), false);
  assert.equal(containsGold(answer, [""]), false);
});

Deno.test("goldRecall is the best share of a span's distinct words found", () => {
  assert.equal(goldRecall("o prazo é de 30 dias", ["prazo de 60 dias"]), 0.75);
  assert.equal(goldRecall("nada aqui", ["prazo", "nada"]), 1);
  assert.equal(goldRecall("x", []), 0);
});

Deno.test("wordCount leaves citation markers out", () => {
  assert.equal(wordCount("Segundo o site: A Ana trabalha em Lisboa. [1] [2]"), 8);
});

Deno.test("saysNotCovered knows the offline sentence and plain phrases without citations", () => {
  assert.equal(saysNotCovered(notCoveredAnswer("pt"), 0), true);
  assert.equal(saysNotCovered("The site does not cover that topic.", 0), true);
  assert.equal(saysNotCovered("The site does not cover X, but [1] says Y.", 1), false);
  assert.equal(saysNotCovered("A Ana trabalha em Lisboa [1].", 1), false);
});

Deno.test("summarize averages into shares and mean words", () => {
  const s = summarize([
    {
      answer: "A Ana trabalha em Lisboa [1].",
      gold: ["em Lisboa"],
      validCitations: 1,
      notCovered: false,
    },
    { answer: notCoveredAnswer("pt"), gold: ["Porto"], validCitations: 0, notCovered: true },
  ]);
  assert.equal(s.questions, 2);
  assert.equal(s.gold_contained, 0.5);
  assert.equal(s.cited, 0.5);
  assert.equal(s.not_covered, 0.5);
  assert.equal(s.mean_words, (5 + wordCount(notCoveredAnswer("pt"))) / 2);
});

Deno.test("missReason: refused, right entry but other sentences, ranked lower, not found", () => {
  const record = (answer: string, notCovered = false) => ({
    answer,
    gold: ["copy.deepcopy"],
    validCitations: notCovered ? 0 : 1,
    notCovered,
  });
  const gold = new Set(["faq-16"]);
  assert.equal(missReason(record("“Use copy.deepcopy.” [1]"), ["faq-16"], gold, 1), "answered");
  assert.equal(missReason(record("Not covered.", true), [], gold, 2), "refused");
  assert.equal(
    missReason(record("“Some objects cannot be copied.” [1]"), ["faq-16"], gold, 1),
    "right entry, span not quoted",
  );
  assert.equal(
    missReason(record("“Tuples are immutable.” [1]"), ["faq-17"], gold, 3),
    "right entry ranked lower, another quoted",
  );
  assert.equal(
    missReason(record("“Tuples are immutable.” [1]"), ["faq-17"], gold, null),
    "right entry not in the results",
  );
});

Deno.test("missReason: a refusal that names the gold entry among the closest pages says so", () => {
  const record = {
    answer: "The site does not cover that. The closest I found: “How do I copy an object?” [1].",
    gold: ["copy.deepcopy"],
    validCitations: 1,
    notCovered: true,
  };
  const gold = new Set(["faq-7"]);
  assert.equal(missReason(record, ["faq-7"], gold, 1), "refused, right entry named");
  assert.equal(missReason(record, ["faq-2"], gold, 1), "refused");
});

Deno.test("missReason: without gold spans, citing a judged passage is the answer", () => {
  const record = (answer: string, notCovered = false) => ({
    answer,
    gold: [],
    validCitations: notCovered ? 0 : 1,
    notCovered,
  });
  const judged = new Set(["seus-dados#apagar"]);
  assert.equal(
    missReason(record("“Use a opção apagar meus dados.” [1]"), ["seus-dados#apagar"], judged, 1),
    "answered",
  );
  assert.equal(
    missReason(record("“KV guarda as conversas.” [1]"), ["seus-dados#kv"], judged, 2),
    "right entry ranked lower, another quoted",
  );
  assert.equal(
    missReason(
      record("Não coberto. O mais próximo: “Apagar” [1].", true),
      ["seus-dados#apagar"],
      judged,
      1,
    ),
    "refused, right entry named",
  );
});
