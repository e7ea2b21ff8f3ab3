import { define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { readJsonBody } from "@/lib/http/body.ts";
import { ownedChat } from "@/lib/chat/ownership.ts";
import type { ChatMessageMetadata } from "@/lib/protocol/ui_message.ts";
import { recordFeedback } from "@/lib/store/feedback.ts";

/** `{ messageId, rating: "up" | "down" | null, comment? }`: the visitor's rating, saved with the answer. */
export const handler = define.handlers({
  async POST(ctx) {
    const chat = await ownedChat(ctx.req, ctx.app, ctx.params.id);
    const body = await readJsonBody(ctx.req, 8192) as Record<string, unknown>;
    const messageId = body?.messageId;
    const rating = body?.rating;
    const comment = body?.comment;
    if (typeof messageId !== "string" || !messageId) {
      throw new HttpError("invalid_request", 'Invalid "messageId": send the id of an answer.');
    }
    if (rating !== "up" && rating !== "down" && rating !== null) {
      throw new HttpError("invalid_request", 'Invalid "rating": send "up", "down" or null.');
    }
    if (comment !== undefined && (typeof comment !== "string" || comment.length > 2000)) {
      throw new HttpError(
        "invalid_request",
        'Invalid "comment": send text of at most 2,000 characters.',
      );
    }
    let notAnswer = false;
    const updated = await ctx.app.store.updateMessage(chat.id, messageId, (m) => {
      if (m.role !== "assistant") {
        notAnswer = true;
        return m;
      }
      const metadata = { ...(m.metadata as ChatMessageMetadata | undefined) };
      if (rating === null) delete metadata.feedback;
      else metadata.feedback = { rating, ...(comment?.trim() ? { comment: comment.trim() } : {}) };
      return { ...m, metadata };
    });
    if (!updated || notAnswer) {
      throw new HttpError("not_found", `Answer "${messageId}" not found in this chat.`);
    }
    const text = typeof comment === "string" && comment.trim() ? comment.trim() : undefined;
    await recordFeedback(ctx.app.kv, {
      chatId: chat.id,
      messageId,
      rating,
      ...(text ? { comment: text } : {}),
      at: ctx.app.clock(),
    });
    if (rating === "down") {
      // A thumbs-down is a content gap (/admin/gaps); loaded here, not at start.
      const { recordThumbsDown } = await import("@/lib/gaps/thumbs_down.ts");
      await recordThumbsDown(ctx.app, chat.id, messageId);
    }
    return Response.json({
      messageId,
      feedback: (updated.metadata as ChatMessageMetadata).feedback ?? null,
    });
  },
});
