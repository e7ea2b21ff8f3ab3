import { define } from "@/lib/http/define.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";
import { clearVisitorCookie } from "@/lib/http/visitor.ts";

/** DELETE /api/me: deletes every chat of the visitor and forgets the visitor. */
export const handler = define.handlers({
  async DELETE(ctx) {
    const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
    const deleted = visitorId ? await ctx.app.store.deleteVisitorChats(visitorId) : 0;
    return Response.json({ deleted }, {
      headers: {
        "Set-Cookie": clearVisitorCookie(ctx.url.protocol === "https:"),
        "Cache-Control": "no-store",
      },
    });
  },
});
