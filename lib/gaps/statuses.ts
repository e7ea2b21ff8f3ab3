/**
 * The content gaps in KV, grouped and placed (open, answered, dismissed), as /admin/gaps and its
 * CSV show them. Grouping 1,000 gaps and matching them to 500 answers takes 100–200 ms, and an
 * owner paging through the list asks for the same groups again: the result is kept per isolate
 * until a gap is recorded, an answer or a dismissal changes, or an hour has passed (gaps expire).
 */
import { type GapDismissal, listDismissals } from "@/lib/store/gap_dismissals.ts";
import { gapCount, listGaps } from "@/lib/store/gaps.ts";
import type { OwnerAnswer, OwnerAnswers } from "@/lib/store/owner_answers.ts";
import { type GroupStatus, placeGroups } from "./answered.ts";
import { groupGaps } from "./group.ts";

/** The groups by where they stand, newest first in each part. */
export interface GapStatuses {
  open: GroupStatus[];
  answered: GroupStatus[];
  dismissed: GroupStatus[];
}

const HOUR_MS = 3_600_000;

/** Each store's last result and what it was made of (a test process runs several stores). */
const kept = new WeakMap<Deno.Kv, { key: string; statuses: GapStatuses }>();

/** The gaps of `kv` by where they stand, given the team's answers and dismissals. */
export async function gapStatuses(
  kv: Deno.Kv,
  answers: readonly OwnerAnswer[],
  dismissals: readonly GapDismissal[],
  now = Date.now(),
): Promise<GapStatuses> {
  const key = [
    await gapCount(kv),
    Math.floor(now / HOUR_MS),
    answers.map((a) => `${a.id}@${a.updatedAt}`).join(),
    dismissals.map((d) => d.id).join(),
  ].join("|");
  const last = kept.get(kv);
  if (last?.key === key) return last.statuses;
  const statuses = placeGroups(groupGaps(await listGaps(kv)), answers, dismissals);
  kept.set(kv, { key, statuses });
  return statuses;
}

/**
 * The team's answers and dismissals read from the app's stores, and the gaps placed by them: what
 * /admin/gaps, its CSV and the dashboard show.
 */
export async function loadGapStatuses(
  app: { kv: Deno.Kv; ownerAnswers: Pick<OwnerAnswers, "list"> },
): Promise<{ answers: OwnerAnswer[]; statuses: GapStatuses }> {
  const [answers, dismissals] = await Promise.all([
    app.ownerAnswers.list(),
    listDismissals(app.kv),
  ]);
  return { answers, statuses: await gapStatuses(app.kv, answers, dismissals) };
}
