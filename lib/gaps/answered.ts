/**
 * Where each group of unanswered questions stands (/admin/gaps): answered by a team answer in
 * its language whose question is alike to one of the group's (the grouping's own likeness, a
 * typo repaired), the gaps recorded after that answer telling whether it serves the visitors;
 * or dismissed by the team, alike to a question it dismissed. Groups still open, or asked
 * again since their answer, come first.
 */
import { questionTerms } from "@/lib/search/question_overlap.ts";
import type { GapDismissal } from "@/lib/store/gap_dismissals.ts";
import type { OwnerAnswer } from "@/lib/store/owner_answers.ts";
import { type GapGroup, questionLikeness, SIMILAR } from "./group.ts";

/** A group, the team answer that answers it and the dismissal that hides it, if any. */
export interface GroupStatus {
  group: GapGroup;
  /** The team's answer whose question is alike to the group's, or null. */
  answer: OwnerAnswer | null;
  /** The team's dismissal of a question alike to the group's, or null. */
  dismissal: GapDismissal | null;
  /** Gaps of the group recorded after that dismissal, or else answer, was saved (0 without). */
  since: number;
}

/** A question of the team's (an answer's, a dismissal's) and its language. */
interface Asked {
  question: string;
  lang: "pt" | "en";
}

/**
 * The groups by where they stand: open (no answer, or gaps since it), answered, dismissed; each
 * part keeps the newest-first order. A dismissal outweighs an answer.
 */
export function placeGroups(
  groups: readonly GapGroup[],
  answers: readonly OwnerAnswer[],
  dismissals: readonly GapDismissal[] = [],
): { open: GroupStatus[]; answered: GroupStatus[]; dismissed: GroupStatus[] } {
  const answerOf = alikeFinder(answers);
  const dismissalOf = alikeFinder(dismissals);
  const open: GroupStatus[] = [];
  const answered: GroupStatus[] = [];
  const dismissed: GroupStatus[] = [];
  for (const group of groups) {
    const after = (at: number) => group.times.filter((t) => t > at).length;
    const dismissal = dismissalOf(group);
    const answer = answerOf(group);
    if (dismissal) {
      dismissed.push({ group, answer, dismissal, since: after(dismissal.at) });
      continue;
    }
    const since = answer ? after(answer.updatedAt) : 0;
    (answer && since === 0 ? answered : open).push({ group, answer, dismissal: null, since });
  }
  return { open, answered, dismissed };
}

/**
 * For a group, the most alike of `items` in its language (at least `SIMILAR` to any of the
 * group's wordings), or null. Only the items sharing a term with a wording are compared (at the
 * caps, 1,000 gaps and 500 answers, 230 ms a page view otherwise).
 */
function alikeFinder<T extends Asked>(items: readonly T[]): (group: GapGroup) => T | null {
  const itemTerms = items.map((item) => ({ item, terms: questionTerms(item.question, item.lang) }));
  const byTerm = new Map<string, number[]>();
  itemTerms.forEach(({ item, terms }, i) => {
    for (const t of terms) {
      const key = `${item.lang}:${t}`;
      const list = byTerm.get(key);
      if (list) list.push(i);
      else byTerm.set(key, [i]);
    }
  });
  return (group) => {
    // Any of the group's wordings: the owner may have answered an older one.
    const wordings = group.questions.map((q) => ({ q, terms: questionTerms(q, group.lang) }));
    const sharing = new Set(
      wordings.flatMap((w) => [...w.terms].flatMap((t) => byTerm.get(`${group.lang}:${t}`) ?? [])),
    );
    let best: { item: T; overlap: number } | null = null;
    for (const i of [...sharing].sort((x, y) => x - y)) {
      const { item, terms } = itemTerms[i];
      const overlap = Math.max(
        ...wordings.map((w) => questionLikeness(w.q, w.terms, item.question, terms, item.lang)),
      );
      if (overlap >= SIMILAR && (!best || overlap > best.overlap)) best = { item, overlap };
    }
    return best?.item ?? null;
  };
}
