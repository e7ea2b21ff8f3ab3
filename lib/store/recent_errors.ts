/**
 * Recent server errors for the admin page: a small ring in KV, with names and codes
 * only, never message text (error messages quote values a visitor may have typed).
 *
 *   ["errors", at, id] → ServerErrorEntry   (kept 7 days)
 *
 * Each isolate writes at most `perMinute` entries a minute, so an error storm cannot
 * flood KV; the page shows the newest `limit`.
 */

import type { ServerErrorEntry } from "@/lib/telemetry/server_error.ts";

const KEEP_MS = 7 * 86_400_000;

/** The ring of recent errors over `kv`. */
export function createRecentErrors(
  kv: Deno.Kv,
  { perMinute = 60, clock = Date.now }: { perMinute?: number; clock?: () => number } = {},
) {
  let minute = 0;
  let written = 0;
  return {
    /** Records `entry`; a failed or throttled write is dropped, never thrown. */
    async record(entry: ServerErrorEntry): Promise<void> {
      const now = Math.floor(clock() / 60_000);
      if (now !== minute) [minute, written] = [now, 0];
      if (written >= perMinute) return;
      written++;
      try {
        await kv.set(["errors", entry.at, crypto.randomUUID()], entry, { expireIn: KEEP_MS });
      } catch (error) {
        console.error("Could not record a server error:", error);
      }
    },
    /** The newest `limit` errors, newest first. */
    async recent(limit = 50): Promise<ServerErrorEntry[]> {
      const out: ServerErrorEntry[] = [];
      const since = clock() - KEEP_MS;
      for await (
        const e of kv.list<ServerErrorEntry>({ prefix: ["errors"] }, { reverse: true, limit })
      ) {
        if (e.value.at >= since) out.push(e.value);
      }
      return out;
    },
  };
}
