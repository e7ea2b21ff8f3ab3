/**
 * What a question asks for, read from its first words, in Portuguese and English. The
 * search matches a visitor's question to an FAQ entry's question of the same kind ("why"
 * to "why"), and the offline model picks the sentence of that kind from the entry.
 */

/** The kinds of question told apart. */
export type QuestionKind = "why" | "where" | "when" | "who" | "how" | "what" | "yesno" | "other";

// Order matters: "como assim por que" is rare; "e por que" and "how come" are "why".
const KIND_PATTERNS: Array<[QuestionKind, RegExp]> = [
  ["why", /^\s*(?:e\s+)?(?:por\s*qu[eê]|porque|why|how come)\b/iu],
  ["where", /^\s*(?:e\s+)?(?:onde|aonde|cad[eê]|where)\b/iu],
  ["when", /^\s*(?:e\s+)?(?:quando|when|what time)\b/iu],
  ["who", /^\s*(?:e\s+)?(?:quem|who|whom|whose)\b/iu],
  [
    "how",
    /^\s*(?:e\s+)?(?:como|de que (?:jeito|forma|maneira)|tem como|qu[aã]o\b|quant[oa]s?\b|how\b|what(?:'s| is) the (?:best |fastest |easiest |right )?way)/iu,
  ],
  ["what", /^\s*(?:e\s+)?(?:o que|que|qual|quais|what|which)\b/iu],
  [
    "yesno",
    /^\s*(?:e\s+)?(?:(?:eu |a gente |voc[eê]s? |o |a )?(?:n[aã]o )?(?:posso|podemos|pode|podem|preciso|precisa|devo|deve|d[aá]|tem|h[aá]|existe|existem|[eé]|s[aã]o|est[aá]|vai|consigo|consegue|funciona)(?![\p{L}\p{N}])|(?:do|does|did|can|could|is|are|was|were|will|would|should|must|has|have|may|am)(?:n't|n’t)?\s|(?:can't|can’t|won't|won’t)\s)/iu,
  ],
];

/**
 * The kind of a question.
 *
 * @example questionKind("Por que o Python usa indentação?") // "why"
 */
export function questionKind(question: string): QuestionKind {
  const kind = kindOf(question.slice(0, 200));
  // A negated opener is as often a problem stated as a question asked ("Não consigo fazer as
  // ligações funcionarem: por que?"): a last clause that asks wins.
  if (kind !== "other" && !NEGATED_OPENER.test(question)) return kind;
  const tail = tailKind(question);
  return tail === "other" ? kind : tail;
}

const NEGATED_OPENER =
  /^\s*(?:e\s+)?(?:(?:eu|a gente|voc[eê]s?|o|a)\s+)?n[aã]o\s|^\s*\w+n['’]t\s/iu;

/**
 * The kind of a question's last clause, or "other". Visitors often state the problem first and
 * ask last: "Editei o módulo mas roda a versão velha, como recarrego?" asks how; "…mudou
 * junto, como assim?" asks why.
 */
function tailKind(question: string): QuestionKind {
  // The question mark is often left off, doubled ("…, why??") or followed by an emoji or an
  // emoticon ("…, why? 🙂").
  const end = question.slice(-200).replace(TRAILING_MOOD, "");
  const tail = /[,;:.!?]\s*([^,;:.!?]+)[?!]*\s*$/u.exec(end)?.[1];
  if (!tail) return "other";
  if (/^\s*(?:como assim|why|how come)\b/iu.test(tail)) return "why";
  return kindOf(tail);
}

/** What a visitor types after a question besides its mark: emoji, symbols, ":)", "kkk". */
const TRAILING_MOOD =
  /(?:[\s\p{Extended_Pictographic}\p{S}\u200d\ufe0f]|[:;]-?[)(DPp]|\b(?:k{3,}|(?:ha){2,}|rs+|lol)\b)+$/iu;

function kindOf(text: string): QuestionKind {
  return KIND_PATTERNS.find(([, re]) => re.test(text))?.[0] ?? "other";
}

export { entryQuestion, isFaqEntry } from "@/lib/text/faq_heading.ts";

/**
 * A label that reads as a question, with the question mark FAQ pages often leave off
 * ("Como cancelo um pedido" → "Como cancelo um pedido?"); any other text unchanged.
 */
export function withQuestionMark(text: string): string {
  // Read as if it ended in "?", so that a question asked last is seen ("Escrever C é difícil;
  // há alguma alternativa").
  if (/\?\s*$/.test(text) || questionKind(`${text}?`) === "other") return text;
  return `${text.replace(/[\s.:;!]+$/, "")}?`;
}
