/**
 * Measures of one chat answer against gold answer spans (FaQuAD's `metadata.answers`),
 * for `deno task eval:answers`. Text is compared as folded word tokens, so case,
 * accents, punctuation and the citation markers `[N]` between quoted sentences do not
 * decide whether an answer holds its gold span.
 */
import { tokenize } from "@/lib/search/analyzer.ts";
import { isNotCoveredAnswer } from "@/lib/models/extractive.ts";
import { isSmallTalkReply } from "@/lib/models/local_small_talk.ts";

const CITATION = /\[\d{1,3}\]/g;

/** Folded word tokens of an answer or gold span, citation markers left out. */
export function answerTokens(text: string): string[] {
  return tokenize(text.replace(CITATION, " "));
}

/** Words of an answer as a reader counts them (citation markers are not words). */
export function wordCount(text: string): number {
  return text.replace(CITATION, " ").split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Whether `needle` occurs as a contiguous run of `hay` (both token lists). */
function containsRun(hay: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Whether the answer holds one of the gold spans word for word. */
export function containsGold(answer: string, gold: readonly string[]): boolean {
  const hay = answerTokens(answer);
  return gold.some((g) => containsRun(hay, answerTokens(g)));
}

/** Best share, over the gold spans, of a span's distinct tokens found in the answer. */
export function goldRecall(answer: string, gold: readonly string[]): number {
  const have = new Set(answerTokens(answer));
  let best = 0;
  for (const g of gold) {
    const want = new Set(answerTokens(g));
    if (want.size === 0) continue;
    let hit = 0;
    for (const t of want) if (have.has(t)) hit++;
    best = Math.max(best, hit / want.size);
  }
  return best;
}

/** One answered question, as the eval saw it. */
export interface AnswerRecord {
  answer: string;
  gold: readonly string[];
  /** Citations the turn's filter counted as valid. */
  validCitations: number;
  /** Whether the answer says the site does not cover the question. */
  notCovered: boolean;
}

/** The summary line of `eval:answers`. */
export interface AnswerSummary {
  questions: number;
  gold_contained: number;
  gold_token_recall: number;
  cited: number;
  not_covered: number;
  mean_words: number;
}

/** Averages the records into shares (0–1, four decimals) and mean words. */
export function summarize(records: readonly AnswerRecord[]): AnswerSummary {
  const n = records.length || 1;
  const mean = (f: (r: AnswerRecord) => number) =>
    Number((records.reduce((s, r) => s + f(r), 0) / n).toFixed(4));
  return {
    questions: records.length,
    gold_contained: mean((r) => containsGold(r.answer, r.gold) ? 1 : 0),
    gold_token_recall: mean((r) => goldRecall(r.answer, r.gold)),
    cited: mean((r) => r.validCitations > 0 ? 1 : 0),
    not_covered: mean((r) => r.notCovered ? 1 : 0),
    mean_words: Number(mean((r) => wordCount(r.answer)).toFixed(1)),
  };
}

const SAYS_NOT_COVERED =
  /n[aã]o (cobre|aborda|menciona|tem informa[cç][aã]o|encontrei)|(does not|doesn't) (cover|mention)|not covered|no information/i;

/**
 * Whether an answer says the site does not cover the question: the offline model's own
 * sentence, or, for other models, such a phrase in an answer that cites nothing.
 */
export function saysNotCovered(answer: string, validCitations: number): boolean {
  const text = answer.trim();
  // The offline model's small-talk replies quote no page either.
  // The refusal may name the closest pages after it (lib/models/nearest_pages.ts).
  if (isNotCoveredAnswer(text)) return true;
  if (isSmallTalkReply(text)) return true;
  return validCitations === 0 && SAYS_NOT_COVERED.test(text);
}

/** Why an answer missed its gold span, read from which entries it cited (`--qrels`). */
export type MissReason =
  | "answered"
  | "refused"
  | "refused, right entry named"
  | "right entry, span not quoted"
  | "right entry ranked lower, another quoted"
  | "right entry not in the results";

/**
 * The reason of one answer: held the gold (without gold spans: cited a gold entry); said "not
 * covered" (naming the gold entry among the closest pages, or not); cited the gold entry but
 * quoted other sentences of it; cited another entry while the gold one was among the
 * search results (`goldRank` > 1: the ranking or the choice of entry missed); or the
 * search did not return the gold entry at all.
 */
export function missReason(
  record: AnswerRecord,
  cited: readonly string[],
  goldEntries: ReadonlySet<string>,
  goldRank: number | null,
): MissReason {
  // Without gold spans (our site's questions are judged by passage), citing a judged one answers.
  const held = record.gold.length
    ? containsGold(record.answer, record.gold)
    : !record.notCovered && cited.some((id) => goldEntries.has(id));
  if (held) return "answered";
  if (record.notCovered) {
    return cited.some((id) => goldEntries.has(id)) ? "refused, right entry named" : "refused";
  }
  if (cited.some((id) => goldEntries.has(id))) return "right entry, span not quoted";
  return goldRank === null
    ? "right entry not in the results"
    : "right entry ranked lower, another quoted";
}
