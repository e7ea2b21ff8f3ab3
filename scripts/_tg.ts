import { shippedLexicon, translationGroups } from "@/lib/search/lexicon.ts";
import { isQuestionWord } from "@/lib/search/query_terms.ts";
const lex = shippedLexicon();
for (const q of Deno.args) console.log(q, JSON.stringify(translationGroups(q, "pt", lex, (t) => isQuestionWord(t, "pt", 1), true)));
