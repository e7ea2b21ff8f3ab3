import assert from "node:assert/strict";
import { questionKind, withQuestionMark } from "./question_kind.ts";

Deno.test("question kind: read from the first words", () => {
  assert.equal(questionKind("Por que o Python usa indentação?"), "why");
  assert.equal(questionKind("How do I loop backwards over a list?"), "how");
  assert.equal(questionKind("Posso usar Python num produto comercial?"), "yesno");
});

Deno.test("question kind: a problem stated first is asked about in its last clause", () => {
  assert.equal(questionKind("Editei meu módulo mas roda a versão velha, como recarrego?"), "how");
  assert.equal(questionKind("Mexi numa lista e a outra mudou junto, como assim?"), "why");
  assert.equal(questionKind("My build broke after the upgrade, why?"), "why");
  // No question mark at the end, no clause to read: the kind stays unknown.
  assert.equal(questionKind("Meu Python tá levando uma eternidade pra abrir, socorro"), "other");
});

Deno.test("'quão'/'quantos' ask how, as 'how fast'/'how many' do; negated and contracted yes/no questions", () => {
  assert.equal(questionKind("Quão estável é o Python?"), "how");
  assert.equal(questionKind("Quantas pessoas usam o Python?"), "how");
  assert.equal(questionKind("How many people use Python?"), "how");
  assert.equal(questionKind("Não podemos remover a trava global?"), "yesno");
  assert.equal(questionKind("Você não pode emular threads no interpretador?"), "yesno");
  assert.equal(questionKind("Can't we get rid of the Global Interpreter Lock?"), "yesno");
  assert.equal(questionKind("Don't you ship abroad?"), "yesno");
  // Still no question: a topic.
  assert.equal(questionKind("Quantidade mínima de itens"), "other");
});

Deno.test("withQuestionMark: a label that reads as a question gets its '?', a topic does not", () => {
  assert.equal(withQuestionMark("Como cancelo um pedido"), "Como cancelo um pedido?");
  assert.equal(
    withQuestionMark("Escrever C é difícil; há alguma alternativa"),
    "Escrever C é difícil; há alguma alternativa?",
  );
  assert.equal(withQuestionMark("Can I pay by card."), "Can I pay by card?");
  assert.equal(withQuestionMark("Prazos de entrega"), "Prazos de entrega");
  assert.equal(withQuestionMark("Posso trocar?"), "Posso trocar?");
});

Deno.test("a negated opener that states a problem asks what its last clause asks", () => {
  assert.equal(
    questionKind("Não consigo fazer as ligações de tecla funcionarem no Tkinter: por que?"),
    "why",
  );
  assert.equal(questionKind("I can't get key bindings to work in Tkinter: why?"), "why");
  assert.equal(questionKind("Não posso instalar o Python, o que eu faço?"), "what");
});

Deno.test("question kind: the last clause asks also without its mark, or with an emoji after it", () => {
  // "…every one gives the last number, why? 🙂" was read as "other" and answered with the
  // setup, not the reason; pyfaq held-out 0.400 / 0.575 fell to 0.350 / 0.550 so typed.
  assert.equal(questionKind("Every lambda gives the last number, why? 🙂"), "why");
  assert.equal(questionKind("Editei meu módulo mas roda a versão velha, como recarrego"), "how");
  assert.equal(questionKind("Mexi numa lista e a outra mudou junto, como assim? :)"), "why");
  assert.equal(questionKind("Editei o módulo, como recarrego? kkkk"), "how");
  assert.equal(questionKind("Editei o módulo, como recarrego???"), "how");
  assert.equal(questionKind("Every lambda gives the last number, why?!"), "why");
});
