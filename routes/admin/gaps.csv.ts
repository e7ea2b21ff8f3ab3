import { requireAdminPage } from "@/lib/admin/guard.ts";
import { define } from "@/lib/define.ts";
import { listDismissals } from "@/lib/store/gap_dismissals.ts";

/**
 * GET /admin/gaps.csv: the groups of /admin/gaps as CSV, each with its status (admin session or
 * bearer token).
 */
export const handler = define.handlers({
  async GET(ctx) {
    await requireAdminPage(ctx);
    // The grouping loads the search analyzer: on first use, not at start.
    const [{ gapsCsv }, { gapStatuses }] = await Promise.all([
      import("@/lib/gaps/csv.ts"),
      import("@/lib/gaps/statuses.ts"),
    ]);
    const [answers, dismissals] = await Promise.all([
      ctx.app.ownerAnswers.list(),
      listDismissals(ctx.app.kv),
    ]);
    const { open, answered, dismissed } = await gapStatuses(ctx.app.kv, answers, dismissals);
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
