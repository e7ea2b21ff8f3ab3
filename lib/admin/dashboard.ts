/**
 * Everything the admin page shows, read in parallel: usage by day and model, latency by
 * model and route, recent server errors, feedback, the newest contact messages and the
 * search index's status.
 */
import type { AppServices } from "@/lib/services.ts";
import { DEFAULT_ASSET_URL } from "@/lib/search/asset_path.ts";
import type { IndexStatus } from "@/lib/search/types.ts";
import type { ContactMessage } from "@/lib/store/contact.ts";
import { type FeedbackEntry, recentFeedback } from "@/lib/store/feedback.ts";
import { createRecentErrors } from "@/lib/store/recent_errors.ts";
import type { ServerErrorEntry } from "@/lib/telemetry/server_error.ts";
import { listUsageCalls, type UsageTotal } from "@/lib/store/usage.ts";
import { latencyByModelAndRoute, type LatencyRow } from "./latency.ts";

/** The data of /admin. */
export interface Dashboard {
  days: number;
  usage: UsageTotal[];
  latency: LatencyRow[];
  errors: ServerErrorEntry[];
  feedback: { entries: FeedbackEntry[]; up: number; down: number };
  contact: ContactMessage[];
  /** The open groups of /admin/gaps: how many, and the newest few. */
  gaps: { open: number; newest: Array<{ question: string; count: number }> };
  index: IndexStatus & { bytes: number | null; builtAt: string | null };
}

/** Reads the dashboard of the last `days` days. */
export async function loadDashboard(
  app: AppServices,
  { days = 30, indexPath = DEFAULT_ASSET_URL }: { days?: number; indexPath?: URL } = {},
): Promise<Dashboard> {
  const now = app.clock();
  const [usage, calls, errors, feedback, contact, gaps, file] = await Promise.all([
    app.usage.totals({ days }),
    listUsageCalls(app.kv, { days, now }),
    createRecentErrors(app.kv, { clock: app.clock }).recent(20),
    recentFeedback(app.kv, 20),
    app.contact.list({ limit: 5 }),
    openGaps(app),
    Deno.stat(indexPath).catch(() => null),
    // The search engine loads on first use (lib/search/lazy_search.ts): status() after it.
    app.search.ready?.().catch(() => {}),
  ]);
  return {
    days,
    usage,
    latency: latencyByModelAndRoute(calls),
    errors,
    feedback,
    contact: contact.messages,
    gaps,
    index: {
      ...app.search.status(),
      bytes: file?.size ?? null,
      builtAt: file?.mtime?.toISOString() ?? null,
    },
  };
}

/** The open groups of unanswered questions, as /admin/gaps lists them first. */
async function openGaps(app: AppServices): Promise<Dashboard["gaps"]> {
  // The grouping loads the search analyzer: on first use, not at start.
  const { loadGapStatuses } = await import("@/lib/gaps/statuses.ts");
  const { open } = (await loadGapStatuses(app)).statuses;
  return {
    open: open.length,
    newest: open.slice(0, 5).map(({ group }) => ({ question: group.question, count: group.count })),
  };
}

/** Tokens (input + output) by day, oldest first, over every model: the chart's bars. */
export function tokensByDay(usage: readonly UsageTotal[]): { day: string; tokens: number }[] {
  const byDay = new Map<string, number>();
  for (const u of usage) {
    byDay.set(u.day, (byDay.get(u.day) ?? 0) + u.inputTokens + u.outputTokens);
  }
  return [...byDay].map(([day, tokens]) => ({ day, tokens })).sort((a, b) =>
    a.day < b.day ? -1 : 1
  );
}
