import { queryTerms } from "@/lib/search/query_terms.ts";
for (const q of Deno.args.slice(1)) console.log(q, "→", queryTerms(q, Deno.args[0] as "pt" | "en"));
