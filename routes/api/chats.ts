import { define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { cursorParam, intParam } from "@/lib/http/query.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";
import { InvalidCursorError } from "@/lib/store/errors.ts";

/** The visitor's own chats, newest first, paged with a KV cursor. */
export const handler = define.handlers({
  async GET(ctx) {
    // Parameters are checked first, so a bad one is a 400 for every visitor alike.
    const limit = intParam(ctx.url, "limit", { min: 1, max: 100, fallback: 20 });
    const cursor = cursorParam(ctx.url);
    const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
    if (!visitorId) return Response.json({ chats: [], cursor: null });
    try {
      const page = await ctx.app.store.listChats(visitorId, { cursor, limit });
      return Response.json(page, { headers: { "Cache-Control": "private, no-store" } });
    } catch (error) {
      if (!(error instanceof InvalidCursorError)) throw error;
      throw new HttpError(
        "invalid_request",
        'Invalid "cursor": send back the cursor of the previous page unchanged.',
      );
    }
  },
});
