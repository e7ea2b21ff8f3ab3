import { readFileSync } from "node:fs";
import { parseJsonl, parseQrels } from "@/lib/search/beir.ts";
import { beirSiteSearch } from "./eval_answers.ts";
const [corpus, lang, queries, qrels] = Deno.args;
const docs = parseJsonl(readFileSync(corpus, "utf8"));
const s = beirSiteSearch(docs as never, lang as "pt" | "en");
const qs = parseJsonl(readFileSync(queries, "utf8")) as unknown as { _id: string; text: string }[];
const rel = parseQrels(readFileSync(qrels, "utf8")) as unknown as Map<string, Map<string, number>>;
let sum = 0;
for (const q of qs) {
  const r = await s.search(q.text, { k: 10 });
  const gold = rel.get(q._id);
  if (!gold) continue;
  const rank = r.passages.findIndex((p) => gold.has(p.id.split("#")[0]) || gold.has(p.id));
  const dcg = rank >= 0 ? 1 / Math.log2(rank + 2) : 0;
  sum += dcg;
  if (rank !== 0) console.log(rank, q._id, q.text, "|", r.passages.slice(0, 3).map((p) => p.id).join(" "), [...gold.keys()].join(","));
}
console.log("approx ndcg", sum / qs.length);
