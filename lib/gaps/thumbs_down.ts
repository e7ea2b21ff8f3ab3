/**
 * A thumbs-down is a content gap (/admin/gaps): the question the rated answer answered is
 * recorded. Loaded by the feedback route on a thumbs-down only, so the search analyzer
 * (language detection) stays out of the cold start.
 */
import type { AppServices } from "@/lib/services.ts";
import { detectLang } from "@/lib/search/detect_lang.ts";
import { recordGap } from "@/lib/store/gaps.ts";
import { textOf } from "./turn_gap.ts";
import { asksNothing } from "@/lib/text/courtesy.ts";

/** Records the question before answer `messageId` of chat `chatId` as a thumbs-down gap. */
export async function recordThumbsDown(
  app: AppServices,
  chatId: string,
  messageId: string,
): Promise<void> {
  const messages = await app.store.loadMessages(chatId);
  const at = messages.findIndex((m) => m.id === messageId);
  const question = textOf(messages.slice(0, Math.max(at, 0)).findLast((m) => m.role === "user"));
  // A thumbs-down on the reply to "Oi!" or "Valeu!" names no page the site lacks.
  if (!question || asksNothing(question)) return;
  await recordGap(app.kv, {
    at: app.clock(),
    chatId,
    question,
    reason: "thumbs-down",
    lang: detectLang(question, "pt"),
  });
}
