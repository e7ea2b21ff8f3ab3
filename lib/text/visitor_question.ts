/**
 * A visitor's question as the search and the offline answer read it: without the greeting or
 * thanks around it (./courtesy.ts), whose words are on no page and would count against it, and
 * with its chat spellings written out (./chat_speak.ts: "pq" → "por que"). The search before the
 * first model call and the offline model read the same text, so both modes answer alike.
 */
import { withoutCourtesy } from "./courtesy.ts";
import { spelledOut } from "./chat_speak.ts";

/** `message` without its courtesy and with its chat spellings written out. */
export function plainQuestion(message: string): string {
  return spelledOut(withoutCourtesy(message));
}
