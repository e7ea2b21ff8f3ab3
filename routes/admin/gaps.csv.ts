import { requireAdminPage } from "@/lib/admin/guard.ts";
import { define } from "@/lib/define.ts";
import { listGaps } from "@/lib/store/gaps.ts";

/** GET /admin/gaps.csv: the groups of /admin/gaps as CSV (admin session or bearer token). */
export const handler = define.handlers({
  async GET(ctx) {
    await requireAdminPage(ctx);
    // The grouping loads the search analyzer: on first use, not at start.
    const [{ gapsCsv }, { groupGaps }] = await Promise.all([
      import("@/lib/gaps/csv.ts"),
      import("@/lib/gaps/group.ts"),
    ]);
    return new Response(gapsCsv(groupGaps(await listGaps(ctx.app.kv))), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="gaps.csv"',
        "Cache-Control": "no-store",
        "X-Robots-Tag": "noindex",
      },
    });
  },
});
