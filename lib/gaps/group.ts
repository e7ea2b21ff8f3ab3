/**
 * Groups unanswered questions by what they ask: two questions are alike when the sets of
 * their stemmed content terms (the search analyzer's) overlap by a Jaccard index of at least
 * `SIMILAR`. No model: the same words the search matches on.
 */
import { questionTerms, termOverlap, wordingOverlap } from "@/lib/search/question_overlap.ts";
import type { GapReason, GapRecord } from "@/lib/store/gaps.ts";

/** Least Jaccard index of two questions' terms for them to share a group. */
export const SIMILAR = 0.5;

/**
 * Least Jaccard index at which a typo is looked for: one typo'd word of a two-word question
 * leaves a third ("…guardam o que eu esrcevo?"); a longer question keeps half without help.
 */
const TYPO_FLOOR = 0.25;

/** Questions alike, counted. */
export interface GapGroup {
  /** The newest question of the group, as the visitor typed it. */
  question: string;
  lang: "pt" | "en";
  count: number;
  /** Gaps per reason. */
  reasons: Partial<Record<GapReason, number>>;
  /** The newest gap's time. */
  lastAt: number;
  /** Every gap's time, newest first. */
  times: number[];
  /** The chats the questions came from, newest first, each once. */
  chatIds: string[];
  /** Every distinct question of the group, newest first. */
  questions: string[];
  /** The related questions visitors went on to from the group's answers, newest first. */
  followed: string[];
}

/** The content terms of a gap's question. */
function termsOf(gap: GapRecord): Set<string> {
  return questionTerms(gap.question, gap.lang);
}

/**
 * Groups gaps, newest group first (by its newest gap). Each gap joins the first group whose
 * first question's terms are alike, so a group does not drift away from what it started as.
 */
export function groupGaps(gaps: readonly GapRecord[]): GapGroup[] {
  const newest = [...gaps].sort((a, b) => b.at - a.at);
  const groups: Array<{ terms: Set<string>; group: GapGroup }> = [];
  for (const gap of newest) {
    const terms = termsOf(gap);
    let found = groups.find((g) => alike(g, gap, terms))?.group;
    if (!found) {
      found = {
        question: gap.question,
        lang: gap.lang,
        count: 0,
        reasons: {},
        lastAt: gap.at,
        times: [],
        chatIds: [],
        questions: [],
        followed: [],
      };
      groups.push({ terms, group: found });
    }
    found.count++;
    found.times.push(gap.at);
    found.reasons[gap.reason] = (found.reasons[gap.reason] ?? 0) + 1;
    if (!found.chatIds.includes(gap.chatId)) found.chatIds.push(gap.chatId);
    if (!found.questions.includes(gap.question)) found.questions.push(gap.question);
    if (gap.followed && !found.followed.includes(gap.followed)) found.followed.push(gap.followed);
  }
  return groups.map((g) => g.group);
}

/** Whether `gap` joins group `g`: their questions are alike (`questionLikeness`). */
function alike(
  g: { terms: Set<string>; group: GapGroup },
  gap: GapRecord,
  terms: Set<string>,
): boolean {
  const likeness = g.group.lang === gap.lang
    ? questionLikeness(gap.question, terms, g.group.question, g.terms, gap.lang)
    : termOverlap(g.terms, terms);
  return likeness >= SIMILAR;
}

/**
 * How alike a visitor's question `a` is to question `b` of the same language (0–1), given their
 * terms: the Jaccard index of the terms, or, when it falls between `TYPO_FLOOR` and `SIMILAR`,
 * that of `a` with a word one typo from a word of `b` read as that word.
 */
export function questionLikeness(
  a: string,
  aTerms: ReadonlySet<string>,
  b: string,
  bTerms: ReadonlySet<string>,
  lang: "pt" | "en",
): number {
  const overlap = termOverlap(aTerms, bTerms);
  if (overlap >= SIMILAR || overlap < TYPO_FLOOR) return overlap;
  return Math.max(overlap, wordingOverlap(a, b, lang));
}
