import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { debfaqDocs } from "./fixture_debfaq.ts";
import { parseJsonl, parseQrels } from "@/lib/search/beir.ts";

Deno.test("the Debian FAQ fixture: one document per numbered section, the number its id", () => {
  const docs = debfaqDocs([
    "# Chapter 3. Choosing\n\nIntro text.\n\n## 3.1. Which one is better for me?\n\nStable.\n\n" +
    "### 3.1.1. Can I change later?\n\nYes, but it is a one way process.\n",
  ]);
  assert.deepEqual(docs.map((d) => [d._id, d.title]), [
    ["3.1", "3.1. Which one is better for me?"],
    ["3.1.1", "3.1.1. Can I change later?"],
  ]);
  assert.equal(docs[1].text, "Yes, but it is a one way process.");
});

Deno.test("the Debian FAQ's held-out questions quote their gold section word for word", () => {
  for (const lang of ["pt", "en"]) {
    const dir = new URL("../tests/fixtures/debfaq/", import.meta.url);
    const read = (name: string) => readFileSync(new URL(name, dir), "utf8");
    const docs = new Map(
      parseJsonl<{ _id: string; text: string }>(read(`corpus_${lang}.jsonl`), lang)
        .map((d) => [d._id, d.text]),
    );
    const qrels = parseQrels(read(`heldout_qrels_${lang}.tsv`));
    const queries = parseJsonl<{ _id: string; metadata: { answers: string[] } }>(
      read(`heldout_queries_${lang}.jsonl`),
      lang,
    );
    assert.equal(queries.length, 24);
    for (const q of queries) {
      const [gold] = [...qrels.get(q._id)!.keys()];
      for (const span of q.metadata.answers) assert.ok(docs.get(gold)?.includes(span), q._id);
    }
  }
});
