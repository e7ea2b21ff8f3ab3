import { readFileSync } from "node:fs";
import { parseJsonl } from "@/lib/search/beir.ts";
import { beirSiteSearch } from "./eval_answers.ts";
import { queryTerms } from "@/lib/search/query_terms.ts";
const [corpus, lang, ...qs] = Deno.args;
const docs = parseJsonl(readFileSync(corpus, "utf8"));
const s = beirSiteSearch(docs as any, lang as "pt" | "en");
for (const q of qs) {
  const r = await s.search(q, { k: 6 });
  console.log("Q:", q);
  for (const p of r.passages) {
    console.log(
      `  ${p.docId} score=${p.score?.toFixed(2)} match=${p.match} | ${p.title.slice(0, 70)}`,
    );
  }
}
