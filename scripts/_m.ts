import { readFileSync } from "node:fs";
import { parseJsonl, type BeirDoc } from "@/lib/search/beir.ts";
import { beirSiteSearch } from "./eval_answers.ts";
const [corpus, qpath, lang] = Deno.args;
const s = beirSiteSearch(parseJsonl<BeirDoc>(readFileSync(corpus, "utf8"), corpus), lang as "pt");
for (const q of parseJsonl<{ _id: string; text: string }>(readFileSync(qpath, "utf8"), qpath)) {
  const r = await s.search(q.text, { k: 5 });
  console.log(Math.max(0, ...r.passages.map((p) => p.match ?? 0)).toFixed(3), q.text);
}
