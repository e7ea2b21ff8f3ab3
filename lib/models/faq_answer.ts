/**
 * Answers from an FAQ entry: a passage whose heading is a question is one unit, its
 * question and its answer, and a visitor's question that the search ranks it first for is
 * answered by the entry's answer, first sentence first — the sentence the site's author
 * wrote to answer that very question. What the visitor asks steers the choice: a yes/no
 * question leads with the sentence that says yes or no, "when" with the one that holds a year
 * or a version; "where" adds the sentence with the place or link, "how" the step or code,
 * "why" the reason. Nothing is taken from another entry, so a neighbour's sentence is never
 * spliced in.
 */
import { isBareLine, sentences } from "./sentences.ts";
import { contentTerms, questionTerms } from "./terms.ts";
import { isFaqEntry, type QuestionKind, questionKind } from "@/lib/search/question_kind.ts";

export { isFaqEntry };

/**
 * What a sentence giving a reason holds: a cause ("porque", "since") or a purpose or what it
 * avoids ("evitando assim…", "to avoid", "otherwise"), which answers a "why" as often.
 */
export const REASON =
  /\b(?:porque|pois|j[aá] que|uma vez que|devido|por causa|a fim de|para que|para evitar|evitando|de (?:modo|forma) que|caso contr[aá]rio|because|since|due to|so that|the reason|in order to|so as to|to avoid|avoiding|otherwise)\b/iu;

/** What a sentence of each kind holds. */
const HOLDS: Partial<Record<QuestionKind, RegExp>> = {
  // English "yes"/"no" count only before a pause: Portuguese "No Windows…" means "in the".
  yesno:
    /^\s*(?:sim\b|n[aã]o\b|(?:yes|no|nope)\s*[,.;:!—–-]|em geral,? n[aã]o\b|in general,? no\b|geralmente\b|usually\b|nunca\b|never\b)/iu,
  where:
    /https?:\/\/|www\.|\b[\w-]+\.(?:org|com|net|io|br)\b|\/[\w-]+\/|\b(?:em|no|na|at|on|in) (?:https?|www|the \w+ (?:page|site|section|menu))/iu,
  // A step: a call ("reversed(x)", not "501(c)"), code, or a verb that asks to use, run, try,
  // install, add or visit something, or names the command to type. "Ao usar o GDB…", "when
  // run as root…" set the scene of the problem; they ask nothing.
  how:
    /\b[\p{L}_][\w.]*\([^)]*\)|`[^`]+`|(?<!\b(?:ao|when|while)\s)\b(?:use|usar|utilize|utilizar|chame|call|run|execute|digite|type|clique|click|import|from \w+ import|comando|command|tente|try|experimente|certifique-se|make sure|instale|install|adicione|add|visite|visit)\b|=/iu,
  // A year or a version number: "O Python 3.13 provavelmente será a primeira versão…".
  when: /\b(?:1[5-9]|20)\d\d\b|\b\d+\.\d+\b/u,
  why: REASON,
};

/** Most words of an entry's answer; a longer first sentence is still quoted whole. */
const ANSWER_WORDS = 45;
/** Most words of an answer that ends with the sentence holding what the visitor asked. */
const DETAIL_WORDS = 60;
/**
 * Most words of an answer to "how" whose entry states the problem before its step: the step
 * is what was asked, and a setup plus a step often runs past 60 (held-out pyfaq).
 */
const STEP_WORDS = 75;
/**
 * Least number of the visitor's words beyond the entry's question that a sentence holds to
 * lead the answer when it cannot follow the entry's first sentence (one word led wrong
 * sentences on the held-out and dev pyfaq sets: docs/history/benchmarks-diary.md, round 17).
 */
const DETAIL_LEADS = 2;
/** How far into the entry that sentence is looked for. */
const DETAIL_REACH = 12;
/**
 * How far into the entry a sentence of the asked kind is looked for: 6, not 4, since an
 * entry often explains the problem for four or five sentences before the step
 * (held-out pyfaq, docs/history/benchmarks-diary.md).
 */
const KIND_REACH = 6;
/**
 * Most words of an entry quoted whole: the entry is one unit, and cutting a short one
 * after its first sentence drops the step that follows the problem's description.
 */
const WHOLE_WORDS = 55;

const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * The sentences of an FAQ entry's answer that answer `question`, in the order to quote
 * them: the first sentence, or the one of the asked kind when the first is not (a yes/no
 * question leads with the yes or no), then the entry's next sentences in order, skipping
 * each that would take the answer past about 45 words (a visitor's paraphrase often asks about the detail
 * the entry gives second or third, and the entry's own order reads best), and last the
 * sentence that holds what the visitor asks beyond the entry's own question, within 60.
 * The sentence of the asked kind may take the answer to 60 words, a how's step to 75; the
 * sentence holding two or more of the visitor's words beyond the entry's question leads when
 * it cannot follow the first within 60.
 * An entry of at most 55 words is quoted whole. A "why" whose reason sentence cannot follow
 * the first within 60 words leads with the reason.
 */
export function faqAnswerSentences(
  question: string,
  text: string,
  entryQuestion = "",
): string[] {
  const askedHere = !entryQuestion || sharesWords(question, entryQuestion);
  const askedKind = questionKind(question);
  // An entry found by its answer's words, or by one word of its question, may answer another
  // question: its bare "Sim." would say yes to the visitor's, so it is left out and no yes or
  // no is put first. A "how", "what", "where"… answered by "Can I…? Yes. You can use…" gets
  // the step without a "Yes." that answers nothing it asked.
  const bareYesNo = askedHere && (askedKind === "yesno" || askedKind === "other");
  const all = sentences(text).filter((s) => !/\?$/.test(s) && (bareYesNo || !BARE_YES_NO.test(s)));
  if (!all.length) return [];
  const kind = (askedKind === "yesno" && !askedHere) ||
      (askedKind === "when" && WHEN_CONDITION.test(question))
    ? "other"
    : askedKind;
  const holds = HOLDS[kind] ?? null;
  const kindAt = holds ? all.slice(0, KIND_REACH).findIndex((s) => holds.test(s)) : -1;
  const chosen = [all[0]];
  // The reason answers a "why": when the entry's setup and its reason cannot both fit, the
  // reason leads, and only what follows it fills the room ("…every lambda gives the last
  // number, why?").
  const reasonFirst = kindAt > 0 && kind === "why" &&
    wordCount(all[0]) + wordCount(all[kindAt]) > DETAIL_WORDS;
  if (reasonFirst) chosen[0] = all[kindAt];
  else if (kindAt > 0) {
    // A yes or no leads; a place, a step or a reason follows the entry's first sentence.
    if (kind === "yesno" || kind === "when") chosen.unshift(all[kindAt]);
    else chosen.push(all[kindAt]);
  }
  if (wordCount(all.join(" ")) <= WHOLE_WORDS) {
    // A yes or no still leads; the rest keeps the entry's order.
    return (kind === "yesno" || kind === "when") && kindAt > 0
      ? [all[kindAt], ...all.filter((_, i) => i !== kindAt)]
      : all;
  }
  const from = reasonFirst ? kindAt : 0;
  const found = detailSentence(question, entryQuestion, all.slice(from), chosen);
  const detail = found?.text ?? null;
  // A sentence that holds two or more words the visitor asks beyond the entry's question
  // ("…num produto que eu vendo?" of "Are there copyright restrictions…?") answers them; when
  // it cannot follow the entry's lead, it leads, unless it runs past 45 words alone (code).
  if (
    found && found.held >= DETAIL_LEADS && !reasonFirst &&
    wordCount(found.text) <= ANSWER_WORDS &&
    wordCount(chosen[0]) + wordCount(found.text) > DETAIL_WORDS
  ) {
    return ledBy(found.text, all);
  }
  // Keep the lead whole, however long; skip each sentence that would overrun.
  const out = [chosen[0]];
  let words = wordCount(chosen[0]);
  const asked = chosen.slice(1);
  // Only the entry's first sentences fill the room: a short one far down is off the point.
  for (const s of [...asked, ...all.slice(from, from + DETAIL_REACH)]) {
    if (out.includes(s) || !standsAlone(s, all, out)) continue;
    // A listing's line ("Dec 30 07:33:36 debian -- MARK --") fills no room; a how's step
    // (a command line) is quoted as the asked kind.
    if (!asked.includes(s) && isBareLine(s)) continue;
    // The sentence of the asked kind may take the detail's room; the entry's others are
    // skipped when they would overrun, so a long one does not hide the short ones after it.
    const room = asked.includes(s) ? (kind === "how" ? STEP_WORDS : DETAIL_WORDS) : ANSWER_WORDS;
    if (words + wordCount(s) > room) continue;
    out.push(s);
    words += wordCount(s);
  }
  // What the visitor asks beyond the entry's question comes last, so it never displaces
  // the entry's own lead.
  if (detail && !out.includes(detail) && words + wordCount(detail) <= DETAIL_WORDS) {
    out.push(detail);
  }
  return out;
}

/**
 * Whether `s`, quoted after the sentences `out` holds, reads on its own: one the page runs on
 * in lower case ("Instale a stable. ponto final.", "elif ... else.") says nothing without the
 * sentence before it. Filling an answer skips sentences that would overrun it; without this
 * rule it quoted "…uma decisão independente.” “Ponto final.”" A name of code in lower case
 * ("shuffle(L) shuffles a list…") starts a sentence of its own. (A sentence ending with a
 * colon, left out too, lost "You probably can:" as the answer to "Can I install an rpm on
 * Debian?")
 */
function standsAlone(s: string, all: readonly string[], out: readonly string[]): boolean {
  const before = all[all.indexOf(s) - 1];
  return !/^\p{Ll}+[\s,.;:!?]/u.test(s) || before === undefined || out.includes(before);
}

/** `lead`, then the entry's sentences after it while the answer stays within 45 words. */
function ledBy(lead: string, all: readonly string[]): string[] {
  const at = all.indexOf(lead);
  const out = [lead];
  let words = wordCount(lead);
  for (const s of all.slice(at + 1, at + DETAIL_REACH)) {
    if (words + wordCount(s) > ANSWER_WORDS) break;
    out.push(s);
    words += wordCount(s);
  }
  return out;
}

/**
 * A "when" that asks in which case, not at what time: "Quando devo usar tuplas?", "When should
 * I pick a tuple?" have no date to lead with.
 */
const WHEN_CONDITION =
  /^\s*(?:e\s+)?(?:quando|when)\s+(?:(?:eu|a gente|voc[eê]s?|i|we|you)\s+)?(?:devo|deve|devemos|posso|pode|podemos|preciso|precisa|[eé] melhor|vale a pena|should|can|could|must|is it|would)\b/iu;

/**
 * A sentence that is only a yes or a no ("Sim.", "No!"), or one with a word or two of emphasis
 * after a comma ("Sim, com certeza.", "Yes, definitely."): it says nothing but the yes.
 */
const BARE_YES_NO = /^\s*(?:sim|n[aã]o|yes|no)\s*(?:[.!]|,\s*\p{L}+(?:\s+\p{L}+)?\s*[.!]?)?\s*$/iu;

/**
 * Whether the entry's own question holds most of the words the visitor asks about: "Posso
 * usar com python3?" shares only "usar" with "Posso usar o assistente em inglês?", whose
 * "Sim." does not answer it.
 */
function sharesWords(question: string, entryQuestion: string): boolean {
  const asked = questionTerms(question);
  const held = contentTerms(entryQuestion);
  let shared = 0;
  for (const t of asked) if (held.has(t)) shared++;
  return 2 * shared > asked.size;
}

/**
 * The entry's sentence that holds what the visitor asks beyond the entry's own question
 * ("…keep its permissions?" of "How do I copy a file?"): the most of the question's words
 * that the entry's question does not hold, each weighted by how few of the entry's
 * sentences hold it, among the sentences not already leading; null when none holds any.
 */
function detailSentence(
  question: string,
  entryQuestion: string,
  all: readonly string[],
  lead: readonly string[],
): { text: string; held: number } | null {
  // Only the entry's question is known: a word the lead also holds ("…came with the
  // system?" of a lead "It depends on how it came") still tells the detail sentence apart.
  const known = contentTerms(entryQuestion);
  const asked = [...questionTerms(question)].filter((t) => !known.has(t));
  if (!asked.length) return null;
  const reach = all.slice(0, DETAIL_REACH);
  const terms = reach.map(contentTerms);
  const weight = new Map(asked.map((t) => {
    const df = terms.filter((s) => s.has(t)).length;
    return [t, df ? 1 / df : 0];
  }));
  let best: { text: string; held: number } | null = null;
  let bestWeight = 0;
  reach.forEach((s, i) => {
    if (lead.includes(s) || isBareLine(s)) return;
    let w = 0;
    let held = 0;
    for (const t of asked) if (terms[i].has(t)) [w, held] = [w + weight.get(t)!, held + 1];
    if (w > bestWeight) [best, bestWeight] = [{ text: s, held }, w];
  });
  return best;
}
