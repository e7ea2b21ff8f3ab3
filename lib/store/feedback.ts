/**
 * An index of the feedback visitors give answers, for the admin page. The rating also
 * stays on the answer's metadata (the chat shows it); this copy lets the owner list the
 * newest without scanning every chat.
 *
 *   ["feedback", chatId, messageId] → FeedbackEntry   (latest rating of that answer)
 *   ["feedback_by_time", at, chatId, messageId] → true (kept 90 days)
 */

/** One answer's feedback. */
export interface FeedbackEntry {
  chatId: string;
  messageId: string;
  rating: "up" | "down";
  comment?: string;
  at: number;
}

const KEEP_MS = 90 * 86_400_000;

/** Records (or, with `rating` null, withdraws) the feedback of one answer; never throws. */
export async function recordFeedback(
  kv: Deno.Kv,
  entry: Omit<FeedbackEntry, "rating"> & { rating: "up" | "down" | null },
): Promise<void> {
  const key = ["feedback", entry.chatId, entry.messageId];
  try {
    const previous = await kv.get<FeedbackEntry>(key);
    const op = kv.atomic().check(previous);
    if (previous.value) {
      op.delete(["feedback_by_time", previous.value.at, entry.chatId, entry.messageId]);
    }
    if (entry.rating === null) op.delete(key);
    else {
      op.set(key, entry, { expireIn: KEEP_MS });
      op.set(["feedback_by_time", entry.at, entry.chatId, entry.messageId], true, {
        expireIn: KEEP_MS,
      });
    }
    await op.commit();
  } catch (error) {
    console.error(`Chat ${entry.chatId}: indexing feedback failed:`, error);
  }
}

/** The newest feedback, newest first, with thumbs counted over what is listed. */
export async function recentFeedback(
  kv: Deno.Kv,
  limit = 50,
): Promise<{ entries: FeedbackEntry[]; up: number; down: number }> {
  const keys: Deno.KvKey[] = [];
  for await (
    const e of kv.list({ prefix: ["feedback_by_time"] }, { reverse: true, limit })
  ) {
    keys.push(["feedback", e.key[2], e.key[3]]);
  }
  const entries: FeedbackEntry[] = [];
  for (let i = 0; i < keys.length; i += 10) {
    for (const e of await kv.getMany<FeedbackEntry[]>(keys.slice(i, i + 10))) {
      if (e.value) entries.push(e.value);
    }
  }
  return {
    entries,
    up: entries.filter((e) => e.rating === "up").length,
    down: entries.filter((e) => e.rating === "down").length,
  };
}
