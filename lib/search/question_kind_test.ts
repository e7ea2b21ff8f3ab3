import assert from "node:assert/strict";
import { questionKind } from "./question_kind.ts";

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
