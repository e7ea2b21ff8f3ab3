import { shippedLexicon, translationGroups } from "@/lib/search/lexicon.ts";
import { isQuestionWord } from "@/lib/search/query_terms.ts";
const lex = shippedLexicon();
for (const q of Deno.args) console.log(q, JSON.stringify(translationGroups(q, "en", lex, (t) => isQuestionWord(t, "en", 1), true)));
