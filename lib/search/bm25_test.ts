import assert from "node:assert/strict";
import { analyze } from "./analyzer.ts";
import { Bm25Scorer, buildPostings, termId } from "./bm25.ts";

const texts = [
  "o gato preto dorme",
  "o cachorro corre no parque",
  "gato gato gato",
  "o gato e o cachorro brincam no parque com outro cachorro",
];
const postings = buildPostings(texts.map((t) => ({ lang: "pt", fields: [[analyze(t, "pt"), 1]] })));

Deno.test("postings are sorted and complete", () => {
  assert.deepEqual(postings.terms, [...postings.terms].sort());
  const id = termId(postings.terms, "gat");
  assert.deepEqual([
    ...postings.postDocs.subarray(postings.postOffsets[id], postings.postOffsets[id + 1]),
  ], [0, 2, 3]);
  assert.equal(termId(postings.terms, "zebra"), -1);
});

Deno.test("BM25 ranks by tf, idf and length", () => {
  const s = new Bm25Scorer(postings, { k1: 1.2, b: 0.75 });
  const ids = (q: string) => [...s.search({ pt: analyze(q, "pt") }, 10).ids];
  assert.deepEqual(ids("gato"), [2, 0, 3]); // tf 3 first, then the shorter doc
  assert.deepEqual(ids("cachorro parque"), [1, 3]); // both terms; doc 3 is longer
  assert.deepEqual(ids("gato preto"), [0, 2, 3]); // the rare "preto" lifts doc 0
  assert.deepEqual(ids("zebra"), []);
});

Deno.test("BM25 exact score for a single-term query", () => {
  const s = new Bm25Scorer(postings, { k1: 1.2, b: 0 });
  const top = s.search({ pt: ["gat"] }, 1);
  const idf = Math.log(1 + (4 - 3 + 0.5) / (3 + 0.5));
  assert.ok(Math.abs(top.scores[0] - idf * (3 * 2.2) / (3 + 1.2)) < 1e-5);
});

Deno.test("terms of one language score only passages in that language", () => {
  const p = buildPostings([
    { lang: "pt", fields: [[["stream"], 1]] },
    { lang: "en", fields: [[["stream"], 1]] },
  ]);
  const s = new Bm25Scorer(p);
  assert.deepEqual([...s.search({ en: ["stream"] }, 5).ids], [1]);
  assert.deepEqual([...s.search({ pt: ["stream"], en: ["stream"] }, 5).ids].sort(), [0, 1]);
});
