import { define } from "@/lib/http/define.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";

/** The visitor's own chats, newest first, paged with a KV cursor. */
export const handler = define.handlers({
  async GET(ctx) {
    const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
    if (!visitorId) return Response.json({ chats: [], cursor: null });
    const limit = Math.min(100, Math.max(1, Number(ctx.url.searchParams.get("limit") ?? 20) || 20));
    const cursor = ctx.url.searchParams.get("cursor") || undefined;
    const page = await ctx.app.store.listChats(visitorId, { cursor, limit });
    return Response.json(page, { headers: { "Cache-Control": "private, no-store" } });
  },
});
