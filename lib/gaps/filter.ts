/**
 * The owner's filter on /admin/gaps (`?q=`): with the lists paged, the browser's find no longer
 * sees every group. A group or answer is kept when each word of the filter is part of one of
 * its questions (or answer text), case and accents aside: "pizza entreg" finds "Vocês entregam
 * pizza?".
 */
import type { OwnerAnswer } from "@/lib/store/owner_answers.ts";
import type { GroupStatus } from "./answered.ts";

/** Longest filter read; the rest is ignored. */
export const MAX_FILTER = 100;

/** The filter's words, folded; none for an empty filter. */
export function filterWords(q: string | null): string[] {
  return fold((q ?? "").slice(0, MAX_FILTER)).split(/\s+/).filter(Boolean);
}

/** Whether a group's wordings, or the related questions visitors went on to, hold every word. */
export function groupMatches(status: GroupStatus, words: readonly string[]): boolean {
  const { group } = status;
  return holdsAll([...group.questions, ...group.followed], words);
}

/** Whether an answer's question or text holds every word. */
export function answerMatches(answer: OwnerAnswer, words: readonly string[]): boolean {
  return holdsAll([answer.question, answer.answer, answer.target?.title ?? ""], words);
}

function holdsAll(texts: readonly string[], words: readonly string[]): boolean {
  if (!words.length) return true;
  const folded = texts.map(fold);
  return words.every((w) => folded.some((t) => t.includes(w)));
}

function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();
}
