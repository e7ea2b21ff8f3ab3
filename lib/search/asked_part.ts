/**
 * The part of a visitor's message that asks. Visitors tell about themselves around a question
 * ("Sou iniciante. Como percorro uma lista de trás pra frente?", "How do I clone an object? It's
 * for a school assignment."), and those words weigh in the search like the question's own:
 * "iniciante" found the beginners' guide, "faculdade" a page no one asked for, and words the
 * site lacks made the gate refuse a question it answers. A message that holds a question
 * which stands on its own is searched by that question alone.
 *
 * A question stands on its own when it holds two words of its own besides the words that only
 * make it a question, and, when it holds fewer than four, no pronoun that points back ("Como
 * tiro eles?", "Is that a bug?"): then the sentences before it say what it asks about ("Tenho
 * uma lista com itens repetidos.") and the whole message is searched, as before.
 */
import { isStopword, type Lang, tokenize } from "./analyzer.ts";
import { detectLang } from "./detect_lang.ts";
import { isQuestionWord } from "./query_terms.ts";
import { asksNothing } from "@/lib/text/courtesy.ts";

/** Fewer words of its own and a question needs the sentences around it ("O que eu instalo?"). */
const MIN_OWN_WORDS = 2;

/** From this many words of its own, a pronoun in a question points inside it ("…call it…"). */
const SELF_CONTAINED_WORDS = 4;

/**
 * Pronouns that point back to an earlier sentence, on folded text. English "it", "this" and
 * "that" count only as an object after a verb or as the subject right after the auxiliary
 * ("How do I fix that?", "Is that a bug?"): elsewhere they are mostly "Is it safe…", "…a
 * one-line if/else that picks…".
 */
const POINTS_BACK: Record<Lang, RegExp> = {
  pt:
    /(?:^|[^\p{L}])(?:isso|isto|aquilo|ele|ela|eles|elas|dele|dela|deles|delas|nele|nela|neles|nelas|disso|nisso|disto|nisto|esse|essa|esses|essas|desse|dessa)(?=$|[^\p{L}])|\p{L}-(?:lo|la|los|las)(?=$|[^\p{L}])/u,
  en:
    /\b(?:them|they|those|these|their)\b|\b(?:fix|do|remove|use|get|make|solve|change|run|call|package|turn|handle|install|avoid|stop|undo|keep|mean|about|with)\s+(?:it|that|this)\b|^\s*(?:why\s+)?(?:is|does|was|can|will|would|should|did|do)\s+(?:that|this|it)\b(?!\s+(?:safe|possible|ok|okay|true|better|worth|necessary)\b)/u,
};

/**
 * What code has and a remark does not: an assignment or comparison, brackets, a call, a dotted
 * name or a version ("mylist.sort", "3.12"), backticks, the interactive prompt.
 */
const CODE = /[=`{}[\]]|\w\(|\w\.\w|>>>/;

/** Closing quotes and brackets that may follow a question mark. */
const CLOSERS = new Set(['"', "'", "”", "’", ")", "]"]);

/**
 * Whether a sentence asks: it ends with its question mark, maybe in "?!" or before a closing
 * quote. Read backwards by hand, as a pattern anchored at the end would try every start.
 */
function asks(sentence: string): boolean {
  let i = sentence.length - 1;
  while (i >= 0 && CLOSERS.has(sentence[i])) i--;
  for (; i >= 0 && (sentence[i] === "?" || sentence[i] === "!"); i--) {
    if (sentence[i] === "?") return true;
  }
  return false;
}

/**
 * The question sentences of `message` when they stand on their own beside sentences that do
 * not ask; otherwise `message` as it is.
 *
 * @example askedPart("Sou iniciante. Como percorro uma lista de trás pra frente?")
 * // "Como percorro uma lista de trás pra frente?"
 * @example askedPart("Tenho uma lista com itens repetidos. Como tiro eles?") // unchanged
 */
export function askedPart(message: string): string {
  const parts = messageSentences(message);
  const questions = parts.filter(asks);
  if (!questions.length || questions.length === parts.length) return message;
  // Code beside the question is what it asks about ("x = mylist.sort()" ⏎ "Por que x fica
  // None?"), never a remark.
  if (parts.some((s) => !asks(s) && CODE.test(s))) return message;
  const question = questions.join(" ");
  // "Não sou da área de TI. Oi, tudo certo?": the only question is a greeting.
  if (asksNothing(question)) return message;
  const lang = detectLang(message);
  const own =
    tokenize(question).filter((t) => !isStopword(t, lang) && !isQuestionWord(t, lang, 2)).length;
  if (own < MIN_OWN_WORDS) return message;
  if (own < SELF_CONTAINED_WORDS && POINTS_BACK[lang].test(foldedLower(question))) return message;
  return question;
}

/**
 * A message's sentences: a run ends at ".", "!", "?" or "…" before a space, and at a line
 * break (chat messages put a remark on a line of its own). Never at a mark inside quotation
 * marks: a question that quotes a passage ("De quem foram as palavras “… irreversível. Mais
 * do que isto…”?") is one sentence.
 */
export function messageSentences(message: string): string[] {
  const text = message.trim();
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "“") quoted = true;
    else if (c === "”") quoted = false;
    else if (c === '"') quoted = !quoted;
    else if (c === "\n" || (!quoted && /[.!?…]/.test(c) && /\s/.test(text[i + 1] ?? ""))) {
      out.push(text.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out.filter(Boolean);
}

/** Lower case without accents, as the pronoun patterns are written. */
function foldedLower(text: string): string {
  return text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
}
