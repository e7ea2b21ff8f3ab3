import assert from "node:assert/strict";
import { localize, localizedTextProblem } from "./localized.ts";

Deno.test("localized: one string for all, or one per language", () => {
  assert.equal(localize("Loja", "en"), "Loja");
  const text = { "pt-BR": "Recado", en: "Message" };
  assert.equal(localize(text, "pt-BR"), "Recado");
  assert.equal(localize(text, "en"), "Message");
});

Deno.test("localized: problems name the field and the fix", () => {
  assert.equal(localizedTextProblem("Loja", "name"), null);
  assert.equal(localizedTextProblem({ "pt-BR": "a", en: "b" }, "name"), null);
  assert.match(localizedTextProblem(" ", "name")!, /^name is empty\. Fix:/);
  assert.match(localizedTextProblem({ "pt-BR": "a" }, "name")!, /no text for "en"/);
  assert.match(localizedTextProblem({ "pt-BR": "a", en: "b", fr: "c" }, "name")!, /"fr"/);
  assert.match(localizedTextProblem(3, "name")!, /must be a string or one per language/);
});
