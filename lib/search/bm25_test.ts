import assert from "node:assert/strict";
import { analyze } from "./analyzer.ts";
import { Bm25Scorer, buildPostings, groupPostings, termId } from "./bm25.ts";

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

Deno.test("groupPostings sums a page's passages: frequencies, lengths, first language", () => {
  const p = buildPostings([
    { lang: "pt", fields: [[["a", "b"], 1]] },
    { lang: "pt", fields: [[["a"], 2]] },
    { lang: "en", fields: [[["b", "c"], 1]] },
  ]);
  const g = groupPostings(p, Uint32Array.from([0, 0, 1]), 2);
  assert.deepEqual([...g.docLens], [4, 2]);
  assert.deepEqual([...g.docLangs], [0, 1]);
  const a = termId(g.terms, "a");
  assert.deepEqual([...g.postDocs.subarray(g.postOffsets[a], g.postOffsets[a + 1])], [0]);
  assert.deepEqual([...g.postTfs.subarray(g.postOffsets[a], g.postOffsets[a + 1])], [3]);
  const b = termId(g.terms, "b");
  assert.deepEqual([...g.postDocs.subarray(g.postOffsets[b], g.postOffsets[b + 1])], [0, 1]);
});

Deno.test("minLen scores a short passage as if it were that long", () => {
  const long = Array.from({ length: 30 }, (_, i) => `w${i}`);
  const p = buildPostings([
    { lang: "pt", fields: [[["x", ...long.slice(0, 1)], 1]] },
    { lang: "pt", fields: [[["x", ...long], 1]] },
  ]);
  const plain = new Bm25Scorer(p, { k1: 1.2, b: 0.75 }).search({ pt: ["x"] }, 2);
  assert.ok(plain.scores[0] > plain.scores[1]); // the 2-word passage wins on length
  const floored = new Bm25Scorer(p, { k1: 1.2, b: 0.75, minLen: 2 }).search({ pt: ["x"] }, 2);
  assert.equal(floored.scores[0], floored.scores[1]); // both count as twice the average
});
