import assert from "node:assert/strict";
import { checkOwnerAnswer, createOwnerAnswers, OwnerAnswerInputError } from "./owner_answers.ts";

Deno.test("owner answers: save, edit, remove; each write bumps the version", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createOwnerAnswers(kv, () => 1000);
    const input = {
      question: "Entregam em Portugal?",
      answer: "Sim, em 5 dias.",
      lang: "pt",
    } as const;
    const saved = await store.save(input);
    assert.ok(saved);
    assert.equal(await store.version(), 1);
    const edited = await store.save({ ...input, answer: "Sim, em 3 dias." }, saved.id);
    assert.equal(edited?.answer, "Sim, em 3 dias.");
    assert.equal((await store.list()).length, 1);
    assert.equal(await store.version(), 2);
    assert.equal(await store.save(input, "zzzzzzzzzzzz"), null);
    assert.equal(await store.remove(saved.id), true);
    assert.equal(await store.get(saved.id), null);
    assert.equal(await store.remove(saved.id), false);
    assert.equal(await store.version(), 3);
  } finally {
    kv.close();
  }
});

Deno.test("owner answers: input is checked, with the fix in the message", () => {
  assert.throws(
    () => checkOwnerAnswer({ question: " ", answer: "a", lang: "pt" }),
    OwnerAnswerInputError,
  );
  assert.throws(
    () => checkOwnerAnswer({ question: "q", answer: "a".repeat(4001), lang: "pt" }),
    /1 to 4000 characters/,
  );
  assert.throws(() => checkOwnerAnswer({ question: "q", answer: "a", lang: "fr" }), /"pt" or "en"/);
  assert.deepEqual(checkOwnerAnswer({ question: " q ", answer: " a ", lang: "en" }), {
    question: "q",
    answer: "a",
    lang: "en",
  });
  // A question answered with a page of the site needs no text of its own.
  const target = { id: "faq#conta", title: "FAQ › Preciso de conta?", url: "/faq#conta" };
  assert.deepEqual(checkOwnerAnswer({ question: "Tem login?", answer: "x", lang: "pt", target }), {
    question: "Tem login?",
    answer: "",
    lang: "pt",
    target,
  });
  assert.throws(() => checkOwnerAnswer({ question: "", lang: "pt", target }), /1 to 300/);
});
