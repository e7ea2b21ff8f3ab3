import { define } from "@/lib/http/define.ts";
import { HttpError } from "@/lib/http/errors.ts";

/** Upstream usage totals by day and model; bearer ADMIN_TOKEN. */
export const handler = define.handlers({
  async GET(ctx) {
    const token = ctx.app.adminToken;
    const given = ctx.req.headers.get("authorization")?.replace(/^Bearer\s+/i, "");
    if (!token || given !== token) {
      throw new HttpError(
        "unauthorized",
        token ? "A valid bearer token is required." : "Set ADMIN_TOKEN to enable this endpoint.",
      );
    }
    const days = Math.min(366, Math.max(1, Number(ctx.url.searchParams.get("days") ?? 30) || 30));
    return Response.json({ days, totals: await ctx.app.usage.totals({ days }) }, {
      headers: { "Cache-Control": "no-store" },
    });
  },
});
