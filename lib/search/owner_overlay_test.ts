import assert from "node:assert/strict";
import { createOwnerAnswers } from "@/lib/store/owner_answers.ts";
import {
  mergeResults,
  ownerAnswerPassage,
  pointedToPages,
  withOwnerAnswers,
} from "./owner_overlay.ts";
import { isFaqEntry } from "./question_kind.ts";
import type { Passage, SiteSearch } from "./types.ts";

const STATIC: Passage = {
  n: 1,
  id: "sobre#a",
  title: "Sobre",
  url: "/sobre",
  lang: "pt",
  text: "O site fala de bolos.",
  score: 5,
  match: 0.3,
  ranks: { bm25: 1, dense: null },
};

const base: SiteSearch = {
  search: () => Promise.resolve({ mode: "lexical", passages: [STATIC] }),
  passage: (id) => id === STATIC.id ? STATIC : null,
  status: () => ({
    status: "ok",
    passages: 1,
    documents: 1,
    mode: "lexical",
    embeddingModel: null,
  }),
};

Deno.test("owner overlay: an answer is found at once, first, and resolvable by id", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const answers = createOwnerAnswers(kv, () => Date.UTC(2026, 11, 4));
    const search = withOwnerAnswers(base, answers);
    assert.deepEqual((await search.search("entregam em Portugal?")).passages, [STATIC]);
    const a = await answers.save({
      question: "Vocês entregam em Portugal",
      answer: "Sim, entregamos em Portugal em cinco dias úteis.",
      lang: "pt",
    });
    const { passages } = await search.search("Vocês entregam em Portugal?");
    assert.equal(passages[0].url, `/respostas/${a!.id}`);
    assert.equal(passages[0].title, "Equipe do site (2026-12-04) › Vocês entregam em Portugal?");
    assert.ok(isFaqEntry(passages[0].title));
    assert.ok(passages[0].score > STATIC.score);
    assert.deepEqual(passages[1], STATIC);
    assert.equal(search.passage(passages[0].id)?.text, a!.answer);
    // An unrelated question leaves the static ranking alone.
    assert.deepEqual((await search.search("bolos")).passages, [STATIC]);
    await answers.remove(a!.id);
    assert.deepEqual((await search.search("Vocês entregam em Portugal?")).passages, [STATIC]);
  } finally {
    kv.close();
  }
});

Deno.test("ownerAnswerPassage: the English team name, the question mark added", () => {
  const p = ownerAnswerPassage({
    id: "abcdefabcdef",
    question: "Do you ship to Portugal",
    answer: "Yes.",
    lang: "en",
    createdAt: 0,
    updatedAt: 0,
  });
  assert.equal(p.title, "Site team (1970-01-01) › Do you ship to Portugal?");
});

Deno.test("owner overlay: an answer put first keeps the rest of the result, its translation too", () => {
  const own: Passage = { ...STATIC, id: "respostas/a#resposta", match: 0.9, score: 1 };
  const merged = mergeResults(
    { mode: "lexical", passages: [STATIC], translatedFrom: "en" },
    [own],
    5,
  );
  assert.deepEqual(merged.passages.map((p) => p.id), ["respostas/a#resposta", "sobre#a"]);
  assert.equal(merged.translatedFrom, "en");
});

Deno.test("owner overlay: a wording answered with a page finds that page, once", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const answers = createOwnerAnswers(kv, () => Date.UTC(2026, 11, 4));
    const search = withOwnerAnswers(base, answers);
    const question = "Qual é a especialidade da casa?";
    await answers.save({
      question,
      answer: "",
      lang: "pt",
      target: { id: STATIC.id, title: STATIC.title, url: STATIC.url! },
    });
    const { passages } = await search.search(question);
    // The page, with the score that puts it first; not also in second place.
    assert.deepEqual(passages.map((p) => p.id), [STATIC.id]);
    assert.equal(passages[0].text, STATIC.text);
    assert.ok(passages[0].score > STATIC.score);
    assert.ok(passages[0].match! > STATIC.match!);
    // The same words, written otherwise: the page too.
    assert.equal((await search.search("qual a especialidade da casa")).passages[0].id, STATIC.id);
    // A question sharing a word with the wording, not alike to it: the static ranking alone.
    const other = await search.search("Qual é a especialidade do chef no almoço de domingo?");
    assert.equal(other.passages[0].score, STATIC.score);
  } finally {
    kv.close();
  }
});

Deno.test("pointedToPages: a page gone, or a target not read yet, is never shown raw", async () => {
  const hit = (id: string): Passage => ({ ...STATIC, id, title: "Pergunta?", score: 9 });
  const targets = new Map([["respostas/a#pagina", "sobre#a"], ["respostas/b#pagina", "gone#x"]]);
  const lookup = (id: string) => id === STATIC.id ? STATIC : null;
  const out = await pointedToPages(
    [hit("respostas/b#pagina"), hit("respostas/c#pagina"), hit("respostas/a#pagina"), STATIC],
    targets,
    lookup,
    5,
  );
  assert.deepEqual(out.map((p) => [p.id, p.score]), [[STATIC.id, 9]]);
  // A written answer passes as it is.
  const written = hit("respostas/d#resposta");
  assert.deepEqual(await pointedToPages([written], targets, lookup, 5), [written]);
});
