import { define } from "@/lib/define.ts";
import { requireAllowedOrigin, siteOrigins } from "@/lib/http/origin.ts";
import { SSE_HEADERS, toSseBytes } from "@/lib/chat/sse.ts";
import { activeOwnedStream } from "@/lib/chat/ownership.ts";
import { followersOf } from "@/lib/chat/followers.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { listenCheckMs } from "@/lib/store/stream_log.ts";
import { isInterruptedChunk } from "@/lib/store/stream_follow.ts";
import type { UIMessageChunk } from "ai";

/**
 * How a followed answer whose producer died mid-turn ends: marked "interrupted", as its saved
 * placeholder is, so the chat shows the partial answer cut off with Retry (not a failed request).
 */
const INTERRUPTED_END: UIMessageChunk[] = [
  { type: "message-metadata", messageMetadata: { outcome: "interrupted" } },
  { type: "finish" },
];

/** Retry-After of a chat whose followers are at the cap: a tab closes, or the answer ends. */
const FULL_RETRY_AFTER_SECONDS = 5;

/**
 * Resumes the chat's answer in flight, from any isolate (the AI SDK's resume contract):
 * replays the stream log from chunk `?from=` (chunks the client already has) and follows
 * it to its end; 204 when nothing runs. Only the chat's owner may: 404 for anyone else.
 * At most `maxFollowersPerChat` followers per chat at once: 429 with Retry-After past it.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { app } = ctx;
    // A GET that streams a visitor's answer is checked like a write.
    requireAllowedOrigin(ctx.req, ctx.url, [
      ...app.config.allowedOrigins,
      ...siteOrigins(app.config),
    ]);
    const pointer = await activeOwnedStream(ctx.req, app, ctx.params.id);
    if (!pointer) return new Response(null, { status: 204 });
    // Ownership first: a stranger learns nothing, not even that the chat is full.
    const leave = followersOf(app).enter(ctx.params.id, app.config.maxFollowersPerChat);
    if (!leave) {
      throw new HttpError(
        "rate_limited",
        `This chat's answer already has ${app.config.maxFollowersPerChat} open followers: ` +
          "close another tab of this chat, or retry when the answer has ended.",
        { "Retry-After": String(FULL_RETRY_AFTER_SECONDS) },
      );
    }
    // While this follower reads, it tells the producer (any isolate) the answer is read.
    const touch = () =>
      void app.streamLog.touchListener(pointer.streamId).catch((error) =>
        console.error(`Chat ${ctx.params.id}: marking a reader failed:`, error)
      );
    // `follow` touches once at its start; this keeps touching while the answer runs.
    const touching = setInterval(touch, listenCheckMs(app.config.abandonAfterSeconds));
    const untouch = () => {
      clearInterval(touching);
      leave();
    };
    ctx.req.signal.addEventListener("abort", untouch, { once: true });
    try {
      const from = Number(ctx.url.searchParams.get("from"));
      const chunks = app.streamLog.follow(pointer.streamId, {
        fromIndex: Number.isSafeInteger(from) && from > 0 ? from : 0,
        signal: ctx.req.signal,
      }).pipeThrough(
        new TransformStream<UIMessageChunk, UIMessageChunk>({
          transform(chunk, controller) {
            if (!isInterruptedChunk(chunk)) return controller.enqueue(chunk);
            for (const end of INTERRUPTED_END) controller.enqueue(end);
          },
          flush: untouch,
          cancel: untouch,
        }),
      );
      return new Response(toSseBytes(chunks, { heartbeatMs: app.heartbeatMs }), {
        headers: SSE_HEADERS,
      });
    } catch (error) {
      untouch(); // the place is given back whatever failed before the stream took it
      throw error;
    }
  },
});
