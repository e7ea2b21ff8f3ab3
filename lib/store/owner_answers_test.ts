import assert from "node:assert/strict";
import {
  checkOwnerAnswer,
  createOwnerAnswers,
  OWNER_ANSWER_LIMITS,
  OwnerAnswerInputError,
} from "./owner_answers.ts";

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

Deno.test("owner answers: the same answer sent twice at once is saved once", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createOwnerAnswers(kv, () => 1000);
    const target = { id: "faq#conta", title: "FAQ › Preciso de conta?", url: "/faq#conta" };
    const pick = { question: "Tem login?", answer: "", lang: "pt", target } as const;
    // Two tabs submitting the same pick, and a double-clicked written answer.
    const [a, b] = await Promise.all([store.save(pick), store.save({ ...pick })]);
    assert.equal(a?.id, b?.id);
    const written = { question: "Entregam  em Portugal?", answer: "Sim.", lang: "pt" } as const;
    const first = await store.save(written);
    assert.equal(
      (await store.save({ ...written, question: "entregam em portugal?" }))?.id,
      first?.id,
    );
    assert.equal((await store.list()).length, 2);
    // Another page, text or language is another answer.
    await store.save({ ...pick, target: { ...target, id: "faq#login" } });
    await store.save({ ...written, answer: "Sim, em 5 dias." });
    await store.save({ ...written, lang: "en" });
    assert.equal((await store.list()).length, 5);
  } finally {
    kv.close();
  }
});

Deno.test("owner answers: concurrent creates never pass the limit", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createOwnerAnswers(kv, () => 1000);
    const limit = OWNER_ANSWER_LIMITS.count;
    for (let i = 0; i < limit - 1; i++) {
      await store.save({ question: `Pergunta ${i}?`, answer: "Sim.", lang: "pt" });
    }
    const results = await Promise.allSettled(
      [1, 2, 3].map((n) => store.save({ question: `Última ${n}?`, answer: "Sim.", lang: "pt" })),
    );
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    assert.equal((await store.list()).length, limit);
  } finally {
    kv.close();
  }
});
