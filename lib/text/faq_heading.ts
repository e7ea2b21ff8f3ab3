/**
 * An FAQ entry as its heading path tells it: the passage whose last heading is a question.
 * Shared: the search lifts such entries, the offline model answers from them, and the chat
 * offers the ones an answer did not use as related questions.
 */

/** The separator of a passage's heading path ("Perguntas frequentes › Preciso de conta?"). */
const PATH_SEPARATOR = " › ";

/** Whether a heading path's last part reads as a question: the passage is an FAQ entry. */
export function isFaqEntry(title: string): boolean {
  return /\?\s*$/.test(entryQuestion(title));
}

/** The question of an FAQ entry's heading path (its last part). */
export function entryQuestion(title: string): string {
  return title.split(PATH_SEPARATOR).at(-1) ?? "";
}
