/**
 * Usage records of upstream model calls.
 *
 *   ["usage", day "YYYY-MM-DD", at, id] → UpstreamCall   (kept 90 days)
 */
import type { UpstreamCall, UsageRecorder } from "@/lib/models/types.ts";

const KEEP_MS = 90 * 86_400_000;

/** Totals of one day and model. */
export interface UsageTotal {
  day: string;
  model: string;
  calls: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  routes: Record<string, number>;
  /** Calls the caller cancelled (a stopped answer, a deadline); their tokens count above too. */
  stopped: number;
  /** Tokens of the stopped calls (input + output), as far as the provider reported them. */
  stoppedTokens: number;
}

/**
 * The recorded calls of the last `days` days (oldest first), at most `limit` of them: the
 * newest when there are more.
 */
export async function listUsageCalls(
  kv: Deno.Kv,
  { days = 30, now = Date.now(), limit = 20_000 }: { days?: number; now?: number; limit?: number } =
    {},
): Promise<UpstreamCall[]> {
  const from = new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const calls: UpstreamCall[] = [];
  for await (
    const entry of kv.list<UpstreamCall>({ start: ["usage", from], end: ["usage", "9999"] }, {
      consistency: "eventual",
      reverse: true,
      limit,
    })
  ) calls.push(entry.value);
  return calls.reverse();
}

/** Records calls in KV; a failed write is logged, never thrown into a chat turn. */
export function createKvUsageRecorder(kv: Deno.Kv): UsageRecorder & {
  totals(options?: { days?: number; now?: number }): Promise<UsageTotal[]>;
} {
  return {
    async record(call) {
      const day = new Date(call.at).toISOString().slice(0, 10);
      try {
        await kv.set(["usage", day, call.at, crypto.randomUUID()], call, { expireIn: KEEP_MS });
      } catch (error) {
        console.error("Could not record a model call:", error);
      }
    },
    async totals({ days = 30, now = Date.now() } = {}) {
      const from = new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
      const map = new Map<string, UsageTotal>();
      for await (
        const entry of kv.list<UpstreamCall>({ start: ["usage", from], end: ["usage", "9999"] }, {
          consistency: "eventual",
        })
      ) {
        const c = entry.value;
        const day = entry.key[1] as string;
        const k = `${day}\u0000${c.model}`;
        let t = map.get(k);
        if (!t) {
          t = {
            day,
            model: c.model,
            calls: 0,
            errors: 0,
            inputTokens: 0,
            outputTokens: 0,
            costUsd: 0,
            routes: {},
            stopped: 0,
            stoppedTokens: 0,
          };
          map.set(k, t);
        }
        t.calls++;
        if (c.status === 0 || c.status >= 400 || c.outcome === "error") t.errors++;
        t.inputTokens += c.inputTokens ?? 0;
        t.outputTokens += c.outputTokens ?? 0;
        t.costUsd += c.costUsd ?? 0;
        t.routes[c.route] = (t.routes[c.route] ?? 0) + 1;
        if (c.outcome === "aborted") {
          t.stopped++;
          t.stoppedTokens += (c.inputTokens ?? 0) + (c.outputTokens ?? 0);
        }
      }
      return [...map.values()].sort((a, b) =>
        a.day < b.day ? 1 : a.day > b.day ? -1 : a.model < b.model ? -1 : 1
      );
    },
  };
}
