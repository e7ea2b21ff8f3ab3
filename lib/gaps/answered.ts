/**
 * Which groups of unanswered questions the site team has answered since (/admin/gaps): a group
 * is answered by a team answer in its language whose question is alike to one of the group's
 * (the grouping's own likeness, a typo repaired), and the gaps recorded after that answer tell whether it serves the
 * visitors. Groups still open, or asked again since their answer, come first.
 */
import { questionTerms } from "@/lib/search/question_overlap.ts";
import type { OwnerAnswer } from "@/lib/store/owner_answers.ts";
import { type GapGroup, questionLikeness, SIMILAR } from "./group.ts";

/** A group and the team answer that answers it, if any. */
export interface GroupStatus {
  group: GapGroup;
  /** The team's answer whose question is alike to the group's, or null. */
  answer: OwnerAnswer | null;
  /** Gaps of the group recorded after that answer was last saved (0 without one). */
  since: number;
}

/**
 * Each group with its answer, the open ones first (no answer, or gaps since it), then the
 * answered ones; each part keeps the newest-first order.
 */
export function withAnswers(
  groups: readonly GapGroup[],
  answers: readonly OwnerAnswer[],
): { open: GroupStatus[]; answered: GroupStatus[] } {
  const answerTerms = answers.map((a) => ({ a, terms: questionTerms(a.question, a.lang) }));
  // An answer sharing no term with a group cannot be alike to it: only those sharing one are
  // compared (at the caps, 1,000 gaps and 500 answers, 230 ms a page view otherwise).
  const byTerm = new Map<string, number[]>();
  answerTerms.forEach(({ a, terms }, i) => {
    for (const t of terms) {
      const key = `${a.lang}:${t}`;
      const list = byTerm.get(key);
      if (list) list.push(i);
      else byTerm.set(key, [i]);
    }
  });
  const open: GroupStatus[] = [];
  const answered: GroupStatus[] = [];
  for (const group of groups) {
    // Any of the group's wordings: the owner may have answered an older one.
    const wordings = group.questions.map((q) => ({ q, terms: questionTerms(q, group.lang) }));
    const sharing = new Set(
      wordings.flatMap((w) => [...w.terms].flatMap((t) => byTerm.get(`${group.lang}:${t}`) ?? [])),
    );
    let best: { a: OwnerAnswer; overlap: number } | null = null;
    for (const i of [...sharing].sort((x, y) => x - y)) {
      const { a, terms: t } = answerTerms[i];
      const overlap = Math.max(
        ...wordings.map((w) => questionLikeness(w.q, w.terms, a.question, t, a.lang)),
      );
      if (overlap >= SIMILAR && (!best || overlap > best.overlap)) best = { a, overlap };
    }
    const answer = best?.a ?? null;
    const since = answer ? group.times.filter((t) => t > answer.updatedAt).length : 0;
    (answer && since === 0 ? answered : open).push({ group, answer, since });
  }
  return { open, answered };
}
