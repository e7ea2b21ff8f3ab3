/**
 * The groups of /admin/gaps the site team dismissed: questions the site will never answer (an
 * order for pizza on a software FAQ, chatter the courtesy rules missed). A group alike to a
 * dismissed question leaves the open list, however often it is asked again, until restored.
 *
 * The search refuses a visitor's question alike to a dismissed one (lib/search/dismissed.ts).
 *
 *   ["gap_dismissals", id] → GapDismissal
 *   ["gap_dismissals_version"] → Deno.KvU64   (added to by every write: the search's cache key)
 */
import { OwnerAnswerInputError, plainQuestion as plain } from "./owner_answers.ts";

/** A question the team dismissed, as the group showed it. */
export interface GapDismissal {
  id: string;
  question: string;
  lang: "pt" | "en";
  at: number;
}

/** Most dismissals kept: KV stays bounded, as the gaps' ring and the answers do. */
export const MAX_DISMISSALS = 500;

/** The id format, as the team answers': 12 lowercase letters and digits. */
const DISMISSAL_ID = /^[a-z0-9]{12}$/;

const VERSION_KEY = ["gap_dismissals_version"];

/** A number that changes with every dismissal and restore (0 before the first). */
export async function dismissalsVersion(kv: Deno.Kv): Promise<number> {
  return Number((await kv.get<Deno.KvU64>(VERSION_KEY)).value?.value ?? 0n);
}

/** Every dismissal, newest first. */
export async function listDismissals(kv: Deno.Kv): Promise<GapDismissal[]> {
  const out: GapDismissal[] = [];
  const limit = MAX_DISMISSALS;
  for await (const e of kv.list<GapDismissal>({ prefix: ["gap_dismissals"] }, { limit })) {
    out.push(e.value);
  }
  return out.sort((a, b) => b.at - a.at);
}

/**
 * Dismisses the group showing `question`; the same question dismissed again (a double submit)
 * is kept once. Throws OwnerAnswerInputError at the limit, or for an empty or long question.
 */
export async function dismissGap(
  kv: Deno.Kv,
  { question, lang }: { question: string; lang: "pt" | "en" },
  now: number,
): Promise<GapDismissal> {
  const text = question.trim();
  if (!text || text.length > 500) throw new OwnerAnswerInputError({ kind: "question", max: 500 });
  const kept = await listDismissals(kv);
  const same = kept.find((d) => d.lang === lang && plain(d.question) === plain(text));
  if (same) return same;
  if (kept.length >= MAX_DISMISSALS) {
    throw new OwnerAnswerInputError({ kind: "dismissalsFull", max: MAX_DISMISSALS });
  }
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const id = Array.from(bytes, (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
  const dismissal = { id, question: text, lang, at: now };
  await kv.atomic().set(["gap_dismissals", id], dismissal).sum(VERSION_KEY, 1n).commit();
  return dismissal;
}

/**
 * Restores a dismissed group to the open list, with any twin of its dismissal (two tabs that
 * dismissed it at once); false when there was no such dismissal.
 */
export async function restoreGap(kv: Deno.Kv, id: string): Promise<boolean> {
  if (!DISMISSAL_ID.test(id)) return false;
  const old = (await kv.get<GapDismissal>(["gap_dismissals", id])).value;
  if (!old) return false;
  const twins = (await listDismissals(kv)).filter((d) =>
    d.lang === old.lang && plain(d.question) === plain(old.question)
  );
  const op = kv.atomic().sum(VERSION_KEY, 1n);
  for (const d of [old, ...twins]) op.delete(["gap_dismissals", d.id]);
  await op.commit();
  return true;
}
