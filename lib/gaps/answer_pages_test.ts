import assert from "node:assert/strict";
import type { Passage, SiteSearch, StoredPassage } from "@/lib/search/types.ts";
import type { OwnerAnswer } from "@/lib/store/owner_answers.ts";
import { candidatePages, pageAnswering, pageById, pagesGone } from "./answer_pages.ts";

const hit = (id: string, url: string | null): Passage => ({
  id,
  title: `Título de ${id}`,
  url,
  lang: "pt",
  text: "Texto.",
  score: 1,
  ranks: { bm25: 1, dense: null },
});

function siteOf(passages: Passage[], stored: StoredPassage[] = []): SiteSearch {
  return {
    search: () => Promise.resolve({ mode: "lexical", passages }),
    passage: (id) => stored.find((p) => p.id === id) ?? null,
    status: () => ({
      status: "ok",
      passages: 1,
      documents: 1,
      mode: "lexical",
      embeddingModel: null,
    }),
  };
}

Deno.test("pageAnswering: the first site page with an address, never a team answer", async () => {
  const site = siteOf([
    hit("respostas/abcdefabcdef#resposta", "/respostas/abcdefabcdef"),
    hit("interno#a", null),
    hit("estranho#a", "javascript:alert(1)"),
    hit("protocolo#a", "//outro.example/x"),
    hit("dados#guardadas", "/seus-dados#guardadas"),
  ]);
  assert.deepEqual(await pageAnswering(site, "  Por quanto tempo ficam guardadas? "), {
    id: "dados#guardadas",
    title: "Título de dados#guardadas",
    url: "/seus-dados#guardadas",
  });
});

Deno.test("pageAnswering: an empty title, or one matching nothing, says what to write", async () => {
  const none = siteOf([hit("estranho#a", "data:text/html,x")]);
  await assert.rejects(() => pageAnswering(none, "pizza"), /Nothing on the site matches "pizza"/);
  await assert.rejects(() => pageAnswering(none, "  "), /in 1 to 300 characters/);
  await assert.rejects(() => pageAnswering(none, "x".repeat(301)), /in 1 to 300 characters/);
});

Deno.test("pagesGone: the pairs whose page the index no longer holds", async () => {
  const page = { id: "dados#a", title: "Dados", url: "/dados#a", lang: "pt", text: "." };
  const answer = (id: string, target?: string): OwnerAnswer => ({
    id,
    question: "Pergunta?",
    answer: target ? "" : "Texto.",
    lang: "pt",
    ...(target ? { target: { id: target, title: "T", url: "/t" } } : {}),
    createdAt: 0,
    updatedAt: 0,
  });
  const site = siteOf([], [page]);
  const answers = [answer("kept"), answer("here", "dados#a"), answer("gone", "antiga#b")];
  assert.deepEqual(await pagesGone(site, answers), ["gone"]);
  // A search that cannot be read now marks none.
  const down: SiteSearch = { ...site, storedPassage: () => Promise.reject(new Error("down")) };
  assert.deepEqual(await pagesGone(down, answers), []);
});

Deno.test("candidatePages: the site's pages the search found, each once, at most ten", async () => {
  const site = siteOf([
    hit("respostas/abcdefabcdef#resposta", "/respostas/abcdefabcdef"),
    hit("a#1", "/a#1"),
    hit("interno#a", null),
    hit("estranho#a", "javascript:alert(1)"),
    hit("a#1", "/a#1"),
    ..."bcdefghijkl".split("").map((d) => hit(`${d}#1`, `https://site.example/${d}#1`)),
  ]);
  assert.deepEqual(
    (await candidatePages(site, "Pergunta?")).map((c) => c.id),
    ["a#1", ..."bcdefghij".split("").map((d) => `${d}#1`)],
  );
  // How each begins, so that a bare section title can be told apart.
  const long = siteOf([{ ...hit("g#1", "/g#1"), text: `${"palavra ".repeat(30)}fim` }]);
  assert.equal((await candidatePages(long, "P?"))[0].excerpt, `${"palavra ".repeat(25)}…`);
  assert.equal((await candidatePages(site, "P?"))[0].excerpt, "Texto.");
  const down: SiteSearch = { ...site, search: () => Promise.reject(new Error("down")) };
  assert.deepEqual(await candidatePages(down, "Pergunta?"), []);
});

Deno.test("pageById: a page the index holds now; else what to do", async () => {
  const page = { id: "dados#a", title: "Dados", url: "/dados#a", lang: "pt", text: "." };
  const odd = { ...page, id: "odd#a", url: "javascript:alert(1)" };
  const team = { ...page, id: "respostas/abcdefabcdef#resposta", url: "/respostas/abcdefabcdef" };
  const site = siteOf([], [page, odd, team]);
  assert.deepEqual(await pageById(site, "dados#a"), {
    id: "dados#a",
    title: "Dados",
    url: "/dados#a",
  });
  for (const id of ["antiga#b", "odd#a", team.id, "x".repeat(400)]) {
    await assert.rejects(() => pageById(site, id), /not in the site's index any more/, id);
  }
});
