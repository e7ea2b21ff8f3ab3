import { define } from "@/lib/http/define.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";
import { SSE_HEADERS, toSseBytes } from "@/lib/chat/sse.ts";

/** Resumes the in-flight answer of a chat after a reload; 204 when there is none. */
export const handler = define.handlers({
  async GET(ctx) {
    const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
    const stream = visitorId ? ctx.app.streams.follow(ctx.params.id, visitorId) : null;
    if (!stream) return new Response(null, { status: 204 });
    return new Response(toSseBytes(stream, { heartbeatMs: ctx.app.heartbeatMs }), {
      headers: SSE_HEADERS,
    });
  },
});
