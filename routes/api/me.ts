import { define } from "@/lib/define.ts";
import { clearVisitorCookies, existingVisitor } from "@/lib/http/visitor.ts";

/**
 * DELETE /api/me: deletes every chat of the visitor and forgets the visitor: the cookie is
 * cleared and every visitor token issued for it (the widget's identity) stops working.
 */
export const handler = define.handlers({
  async DELETE(ctx) {
    const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
    const deleted = visitorId ? await ctx.app.store.deleteVisitorChats(visitorId) : 0;
    if (visitorId) await ctx.app.signer.tokens?.revoke(visitorId);
    const headers = new Headers({ "Cache-Control": "no-store" });
    for (const c of clearVisitorCookies(ctx.app.secureCookies)) headers.append("Set-Cookie", c);
    return Response.json({ deleted }, { headers });
  },
});
