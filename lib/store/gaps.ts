/**
 * The questions the assistant could not answer, for /admin/gaps: a ring of at most
 * `GAP_RING` records in KV, so a flood of unanswered questions cannot grow KV without bound.
 *
 *   ["gap_seq"] → number                 (records written so far)
 *   ["gaps", seq % GAP_RING] → GapRecord (kept 90 days)
 */

/**
 * Why a question counts as a gap; "related": the visitor went on to one of the related
 * questions offered under its answer (lib/text/related_questions.ts).
 */
export type GapReason = "not-covered" | "stopped" | "thumbs-down" | "retried" | "related";

/** One unanswered question. */
export interface GapRecord {
  at: number;
  chatId: string;
  /** The visitor's question, cut to `MAX_QUESTION` characters. */
  question: string;
  reason: GapReason;
  lang: "pt" | "en";
  /** "related": the related question the visitor went on to, cut to `MAX_QUESTION`. */
  followed?: string;
}

/** Most records kept: a new one replaces the oldest. */
export const GAP_RING = 1000;
/** Longest question stored; KV values stay far below their 64 KiB limit. */
export const MAX_QUESTION = 500;
const KEEP_MS = 90 * 86_400_000;

/** Records a gap; a failed write is logged, never thrown (the visitor's turn must not fail). */
export async function recordGap(kv: Deno.Kv, gap: GapRecord): Promise<void> {
  const record = {
    ...gap,
    question: gap.question.trim().slice(0, MAX_QUESTION),
    ...(gap.followed ? { followed: gap.followed.trim().slice(0, MAX_QUESTION) } : {}),
  };
  if (!record.question) return;
  try {
    // The counter is checked, so two writers never take the same slot.
    for (let attempt = 0; attempt < 20; attempt++) {
      // Writers that raced for the counter retry apart (random, growing back-off).
      if (attempt) await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      const seq = await kv.get<number>(["gap_seq"]);
      const n = seq.value ?? 0;
      const done = await kv.atomic().check(seq)
        .set(["gap_seq"], n + 1)
        .set(["gaps", n % GAP_RING], record, { expireIn: KEEP_MS })
        .commit();
      if (done.ok) return;
    }
    console.error(`Chat ${gap.chatId}: recording a content gap lost every race; dropped.`);
  } catch (error) {
    console.error(`Chat ${gap.chatId}: recording a content gap failed:`, error);
  }
}

/** How many gaps were ever recorded: it changes with every new one. */
export async function gapCount(kv: Deno.Kv): Promise<number> {
  return (await kv.get<number>(["gap_seq"])).value ?? 0;
}

/** Every kept gap, newest first. */
export async function listGaps(kv: Deno.Kv): Promise<GapRecord[]> {
  const out: GapRecord[] = [];
  for await (const e of kv.list<GapRecord>({ prefix: ["gaps"] }, { limit: GAP_RING })) {
    out.push(e.value);
  }
  return out.sort((a, b) => b.at - a.at);
}
