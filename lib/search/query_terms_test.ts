import assert from "node:assert/strict";
import { askedVerb, queryTerms } from "./query_terms.ts";
import { buildIndexData } from "./index_data.ts";
import { SearchEngine } from "./engine.ts";

Deno.test("queryTerms drops interrogatives, then framing verbs, but never every term", () => {
  assert.deepEqual(queryTerms("Quais disciplinas o aluno deve cursar?", "pt", 0), [
    "qua",
    "disciplin",
    "alun",
    "dev",
    "curs",
  ]);
  assert.deepEqual(queryTerms("Quais disciplinas o aluno deve cursar?", "pt", 1), [
    "disciplin",
    "alun",
    "dev",
    "curs",
  ]);
  assert.deepEqual(queryTerms("Quais disciplinas o aluno deve cursar?", "pt", 2), [
    "disciplin",
    "alun",
    "curs",
  ]);
  assert.deepEqual(queryTerms("Quantos?", "pt", 2), ["quant"]);
  assert.deepEqual(queryTerms("How many credits?", "en", 1), ["credit"]);
});

Deno.test("a page full of question words no longer outranks the page that answers", () => {
  const passage = (id: string, text: string) => ({
    id,
    docId: id,
    title: "",
    url: null,
    lang: "pt" as const,
    text,
  });
  const data = buildIndexData([
    passage("faq", "Quais disciplinas? Quais prazos? Quais regras? Quais? Quais?"),
    passage("grade", "As disciplinas obrigatórias do aluno estão na grade."),
    passage("x", "O restaurante universitário abre às sete."),
    passage("y", "A biblioteca abre às oito."),
  ]);
  const q = "Quais disciplinas o aluno deve cursar?";
  // What the engine did before: "quais" matched, and the FAQ page won.
  assert.equal(new SearchEngine(data, { questionWords: 0 }).rankLexical(q, 3).ids[0], 0);
  assert.equal(new SearchEngine(data).rankLexical(q, 3).ids[0], 1);
});

Deno.test("askedVerb: the verb after how/como, past pronouns and auxiliaries", () => {
  assert.ok(askedVerb("Como eu clono um objeto?").has("clon"));
  assert.ok(askedVerb("How do I dedupe a list?").has("dedup"));
  // After "faço para" the infinitive is what the question is about, not how it asks.
  assert.ok(!askedVerb("Como faço para emagrecer?").has("emagrec"));
  assert.equal(askedVerb("Python tem goto?").size, 0);
});
