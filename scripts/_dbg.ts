import { readFileSync } from "node:fs";
import { parseJsonl, type BeirDoc } from "@/lib/search/beir.ts";
import { buildIndexData } from "@/lib/search/index_data.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
const docs = parseJsonl<BeirDoc>(readFileSync("tests/fixtures/pyfaq/corpus_en.jsonl", "utf8"), "x");
const e = new SearchEngine(buildIndexData(docs.map((d) => ({ id: d._id, docId: d._id, title: d.title ?? "", url: null, lang: "en", text: d.text }))));
for (const q of Deno.args) {
  const r = e.rankLexical(q, 5);
  console.log(q, [...r.ids].map((i, k) => `${docs[i]._id}:${r.scores[k].toFixed(3)}`).join(" "));
}
