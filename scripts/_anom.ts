import { readFileSync } from "node:fs";
import { parseJsonl, parseQrels, type BeirDoc } from "@/lib/search/beir.ts";
import { buildIndexData } from "@/lib/search/index_data.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import { queryTerms } from "@/lib/search/query_terms.ts";
import { analyze } from "@/lib/search/analyzer.ts";
const [c, q, r, lang] = Deno.args as [string, string, string, "pt" | "en"];
const docs = parseJsonl<BeirDoc>(readFileSync(c, "utf8"), c);
const e = new SearchEngine(buildIndexData(docs.map((d) => ({ id: d._id, docId: d._id, title: d.title ?? "", url: null, lang, text: d.text }))));
const qrels = parseQrels(readFileSync(r, "utf8"));
const byId = new Map(docs.map((d) => [d._id, d]));
const has = (d: BeirDoc, ts: string[]) => { const s = new Set(analyze(`${d.title} ${d.text}`, lang)); const t = new Set(analyze(d.title ?? "", lang)); return ts.map((x) => s.has(x) ? (t.has(x) ? x.toUpperCase() : x) : "-" + x).join(" "); };
for (const x of parseJsonl<{ _id: string; text: string }>(readFileSync(q, "utf8"), q)) {
  const rel = qrels.get(x._id); if (!rel) continue;
  const ids = [...e.rankLexical(x.text, 10).ids].map((i) => docs[i]._id);
  const gold = [...rel.keys()][0];
  const rank = ids.indexOf(gold);
  if (rank === 0) continue;
  const ts = queryTerms(x.text, lang, 1);
  console.log(`${rank} ${x.text}\n   top ${ids[0]}: ${has(byId.get(ids[0])!, ts)} | ${byId.get(ids[0])!.title}\n   gold ${gold}: ${has(byId.get(gold)!, ts)} | ${byId.get(gold)!.title}`);
}
