import assert from "node:assert/strict";
import { questionTerms, termOverlap, wordingOverlap } from "./question_overlap.ts";

const plain = (a: string, b: string) => termOverlap(questionTerms(a, "pt"), questionTerms(b, "pt"));

Deno.test("wordingOverlap: a typo in a word of the wording still asks the wording", () => {
  const wording = "Como clono um objeto sem mexer no original?";
  for (
    const typed of [
      "Como clono um objeto sem mexer no oriignal?", // swapped
      "Como clono um objeto sem mexer no orignal?", // dropped
      "Como clono um objeto sem mexer no origginal?", // added
      "Como clono um objeto sem mexer no origunal?", // replaced
    ]
  ) {
    assert.ok(plain(typed, wording) < 0.75, typed);
    assert.equal(wordingOverlap(typed, wording, "pt"), 1, typed);
  }
  assert.equal(
    wordingOverlap(
      "Where are the python.org sevrers hosted?",
      "Where are the python.org servers hosted?",
      "en",
    ),
    1,
  );
});

Deno.test("wordingOverlap: the question's code reads as typed, repaired or not", () => {
  assert.equal(wordingOverlap("What's a[-1]?", "What's a[-1]?", "en"), 1);
  assert.equal(wordingOverlap("Why does a[-1] returm 3?", "Why does a[-1] return 3?", "en"), 1);
});

Deno.test("wordingOverlap: another word is not read as a typo", () => {
  // One letter apart but other words: short ones, a first letter, and a word with two near.
  assert.ok(wordingOverlap("Como apagar minha conta?", "Como pagar minha conta?", "pt") < 0.75);
  assert.ok(wordingOverlap("Como troco a senha?", "Como trago a senha?", "pt") < 0.75);
  assert.ok(
    wordingOverlap("O histórico fica guardado?", "O histórico fica apagado?", "pt") < 0.75,
  );
  // Two words of the wording one typo from the visitor's: which one is meant is unknown.
  assert.ok(wordingOverlap("Como uso o cartao?", "Como uso o cartaz ou o cartas?", "pt") < 0.5);
});
