import { define } from "@/lib/define.ts";
import { requireAdmin } from "@/lib/http/admin.ts";
import { withAdminAttemptLimit } from "@/lib/admin/guard.ts";
import { intParam } from "@/lib/http/query.ts";

/** Upstream usage totals by day and model; `Authorization: Bearer <ADMIN_TOKEN>`. */
export const handler = define.handlers({
  async GET(ctx) {
    await withAdminAttemptLimit(ctx, () => requireAdmin(ctx.req, ctx.app.adminToken));
    const days = intParam(ctx.url, "days", { min: 1, max: 366, fallback: 30 });
    return Response.json({ days, totals: await ctx.app.usage.totals({ days }) }, {
      headers: { "Cache-Control": "no-store" },
    });
  },
});
