/**
 * The source numbers an answer cites, as the page and the server read them alike: the chips
 * under an answer, the related questions it did not quote, the content gaps.
 */
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { newCodeScan, scanCode } from "./code_spans.ts";

/** `[N]`, not the text of a markdown link (`[1](…)`). */
const CITED = /\[(\d{1,3})\](?!\()/g;

/**
 * The numbers a message's text cites: its `[N]` outside code, read by the scan the server's
 * citation filter reads (`a[2]` in a code span is code).
 */
export function citedNumbers(message: ChatMessage): Set<number> {
  const out = new Set<number>();
  for (const part of message.parts) {
    if (part.type !== "text") continue;
    const code = scanCode(part.text, newCodeScan());
    for (const m of part.text.matchAll(CITED)) if (!code[m.index]) out.add(Number(m[1]));
  }
  return out;
}
