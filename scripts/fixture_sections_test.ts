import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { sectionDocs } from "./fixture_sections.ts";
import { parseJsonl, parseQrels } from "@/lib/search/beir.ts";

Deno.test("a held-out site's fixture: one document per numbered section, the number its id", () => {
  const docs = sectionDocs([
    "# Chapter 3. Choosing\n\nIntro text.\n\n## 3.1. Which one is better for me?\n\nStable.\n\n" +
    "### 3.1.1. Can I change later?\n\nYes, but it is a one way process.\n",
  ]);
  assert.deepEqual(docs.map((d) => [d._id, d.title]), [
    ["3.1", "3.1. Which one is better for me?"],
    ["3.1.1", "3.1.1. Can I change later?"],
  ]);
  assert.equal(docs[1].text, "Yes, but it is a one way process.");
});

/** The corpus of one site's language: section id → text. */
function corpusOf(dir: URL, lang: string): Map<string, string> {
  const docs = parseJsonl<{ _id: string; text: string }>(
    readFileSync(new URL(`corpus_${lang}.jsonl`, dir), "utf8"),
    lang,
  );
  return new Map(docs.map((d) => [d._id, d.text]));
}

// [site, set, questions a language]
const SETS: Array<[string, string, number]> = [
  ["debfaq", "heldout", 24],
  ["harden", "heldout", 24],
  ["harden", "heldout2", 24],
  ["handbook", "heldout", 30],
  ["handbook", "heldout2", 30],
];
for (const [site, set, count] of SETS) {
  Deno.test(`${site} ${set}: the questions quote their gold section word for word`, () => {
    const dir = new URL(`../tests/fixtures/${site}/`, import.meta.url);
    const read = (name: string) => readFileSync(new URL(name, dir), "utf8");
    for (const lang of ["pt", "en"]) {
      const docs = corpusOf(dir, lang);
      const qrels = parseQrels(read(`${set}_qrels_${lang}.tsv`));
      const queries = parseJsonl<{ _id: string; metadata: { answers: string[] } }>(
        read(`${set}_queries_${lang}.jsonl`),
        lang,
      );
      assert.equal(queries.length, count);
      for (const q of queries) {
        const [gold] = [...qrels.get(q._id)!.keys()];
        for (const span of q.metadata.answers) assert.ok(docs.get(gold)?.includes(span), q._id);
      }
    }
  });
}
