import { define } from "@/lib/http/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";
import { InvalidCursorError } from "@/lib/store/chats.ts";

/** The visitor's own chats, newest first, paged with a KV cursor. */
export const handler = define.handlers({
  async GET(ctx) {
    const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
    if (!visitorId) return Response.json({ chats: [], cursor: null });
    const limit = Math.min(100, Math.max(1, Number(ctx.url.searchParams.get("limit") ?? 20) || 20));
    const cursor = ctx.url.searchParams.get("cursor") || undefined;
    try {
      const page = await ctx.app.store.listChats(visitorId, { cursor, limit });
      return Response.json(page, { headers: { "Cache-Control": "private, no-store" } });
    } catch (error) {
      if (error instanceof InvalidCursorError) {
        throw new HttpError("invalid_request", error.message);
      }
      throw error;
    }
  },
});
