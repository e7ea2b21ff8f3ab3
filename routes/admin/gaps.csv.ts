import { requireAdminPage } from "@/lib/admin/guard.ts";
import { define } from "@/lib/define.ts";

/**
 * GET /admin/gaps.csv: the groups of /admin/gaps as CSV, each with its status (admin session or
 * bearer token).
 */
export const handler = define.handlers({
  async GET(ctx) {
    await requireAdminPage(ctx);
    // The grouping loads the search analyzer: on first use, not at start.
    const [{ gapsCsv }, { loadGapStatuses }] = await Promise.all([
      import("@/lib/gaps/csv.ts"),
      import("@/lib/gaps/statuses.ts"),
    ]);
    const { open, answered, dismissed } = (await loadGapStatuses(ctx.app)).statuses;
    return new Response(gapsCsv([...open, ...answered, ...dismissed]), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="gaps.csv"',
        "Cache-Control": "no-store",
        "X-Robots-Tag": "noindex",
      },
    });
  },
});
