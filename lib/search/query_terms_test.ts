import assert from "node:assert/strict";
import { queryTerms } from "./query_terms.ts";
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
  const engine = new SearchEngine(buildIndexData([
    passage("faq", "Quais perguntas? Quais prazos? Quais regras? Onde? Quais? Disciplinas."),
    passage("grade", "As disciplinas obrigatórias que o aluno cursa estão na grade do curso."),
    passage("x", "O restaurante universitário abre às sete."),
  ]));
  assert.equal(engine.rankLexical("Quais disciplinas o aluno deve cursar?", 3).ids[0], 1);
});
