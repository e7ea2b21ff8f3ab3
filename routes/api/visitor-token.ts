import { define } from "@/lib/define.ts";
import { ServiceUnavailableError } from "@/lib/outage.ts";

/**
 * POST /api/visitor-token: a new visitor and its signed token `{ token, expiresAt }`, for the
 * widget, whose frame cannot keep the cookie (see lib/http/visitor_token.ts). The widget sends
 * it back as `Authorization: Bearer <token>`; `DELETE /api/me` with it revokes it.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const tokens = ctx.app.signer.tokens;
    if (!tokens) throw new ServiceUnavailableError("Visitor tokens are not configured.");
    const { token, expiresAt } = await tokens.issue();
    return Response.json({ token, expiresAt }, { headers: { "Cache-Control": "no-store" } });
  },
});
