// per-half nDCG@10: FaQuAD, pyfaq dev/heldout pt/en, site pt/en
import { readFileSync } from "node:fs";
import { parseJsonl, parseQrels, ndcgAt, type BeirDoc } from "@/lib/search/beir.ts";
import { buildIndexData } from "@/lib/search/index_data.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import { loadSiteSet, runSiteQueries } from "./eval_site.ts";
const P = "tests/fixtures/pyfaq/";
const sets: Array<[string, string, string, string, "pt" | "en"]> = [
  ["faquad", "tests/fixtures/faquad/corpus.jsonl", "tests/fixtures/faquad/queries.jsonl", "tests/fixtures/faquad/qrels/test.tsv", "pt"],
  ["pyPTdev", P + "corpus_pt.jsonl", P + "queries_pt.jsonl", P + "qrels_pt.tsv", "pt"],
  ["pyPTho", P + "corpus_pt.jsonl", P + "heldout_queries_pt.jsonl", P + "heldout_qrels_pt.tsv", "pt"],
  ["pyENdev", P + "corpus_en.jsonl", P + "queries_en.jsonl", P + "qrels_en.tsv", "en"],
  ["pyENho", P + "corpus_en.jsonl", P + "heldout_queries_en.jsonl", P + "heldout_qrels_en.tsv", "en"],
  ["xPTdev", P + "corpus_en.jsonl", P + "queries_pt.jsonl", P + "qrels_pt.tsv", "en"],
  ["xPTho", P + "corpus_en.jsonl", P + "heldout_queries_pt.jsonl", P + "heldout_qrels_pt.tsv", "en"],
  ["xENdev", P + "corpus_pt.jsonl", P + "queries_en.jsonl", P + "qrels_en.tsv", "pt"],
  ["xENho", P + "corpus_pt.jsonl", P + "heldout_queries_en.jsonl", P + "heldout_qrels_en.tsv", "pt"],
];
const out: string[] = [];
for (const [name, c, q, r, lang] of sets) {
  const docs = parseJsonl<BeirDoc>(readFileSync(c, "utf8"), c);
  const qs = parseJsonl<{ _id: string; text: string }>(readFileSync(q, "utf8"), q);
  const qrels = parseQrels(readFileSync(r, "utf8"));
  const engine = new SearchEngine(buildIndexData(docs.map((d) => ({ id: d._id, docId: d._id, title: d.title ?? "", url: null, lang, text: d.text }))));
  const h = [0, 0], n = [0, 0];
  let i = 0;
  for (const x of qs) {
    const rel = qrels.get(x._id);
    if (!rel) continue;
    const ids = engine.rankLexical(x.text, 100).ids.map((k) => docs[k]._id);
    h[i % 2] += ndcgAt(ids, rel, 10); n[i % 2]++; i++;
  }
  out.push(`${name} ${(h[0] / n[0]).toFixed(4)}/${(h[1] / n[1]).toFixed(4)}`);
}
const set = await loadSiteSet();
const rs = runSiteQueries(set);
for (const name of ["pt", "en"]) {
  const r = rs.filter((x) => x.set === name);
  const m = (k: number) => { const s = r.filter((_, i) => i % 2 === k); return (s.reduce((a, x) => a + x.ndcg10, 0) / s.length).toFixed(4); };
  out.push(`site${name} ${m(0)}/${m(1)}`);
}
console.log(out.join("  "));
