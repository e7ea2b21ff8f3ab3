import assert from "node:assert/strict";
import { definitionHead, definitionSubject } from "./definition_cue.ts";

Deno.test("definitionSubject: what a 'what is' question asks to define, in pt and en", () => {
  assert.equal(definitionSubject("O que é o modo offline?"), "o modo offline");
  assert.equal(definitionSubject("que são artefatos"), "artefatos");
  assert.equal(definitionSubject("O que significa RAG?"), "RAG");
  assert.equal(definitionSubject("What is a widget?"), "a widget");
  assert.equal(definitionSubject("What is meant by a passage?"), "a passage");
  // Other questions ask for something else.
  assert.equal(definitionSubject("Quando o site foi publicado?"), null);
  assert.equal(definitionSubject("O que o widget carrega?"), null);
  assert.equal(definitionSubject("How is the answer built?"), null);
});

Deno.test("definitionHead: the words a sentence defines, before a copula near its start", () => {
  assert.equal(
    definitionHead("A unidade lógica e aritmética (ULA) é a unidade central do processador."),
    "A unidade lógica e aritmética (ULA)",
  );
  assert.equal(definitionHead("Programas são listas de instruções."), "Programas");
  assert.equal(definitionHead("A widget is a small script."), "A widget");
  // "Entende-se por X …" defines what follows the frame.
  assert.match(definitionHead("Entende-se por regime domiciliar a troca de aulas.")!, /regime/);
  // A copula far from the start does not make a definition.
  const late = "Na universidade federal situada no sul do país com muitos cursos novos de " +
    "engenharia e computação criados nos anos noventa o curso é novo.";
  assert.equal(definitionHead(late), null);
  assert.equal(definitionHead("Os dados ficam no Deno KV."), null);
});
