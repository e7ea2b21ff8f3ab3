/**
 * Rate limits per visitor and per IP: requests a minute and tokens a day.
 *
 * An in-isolate counter answers an obvious excess without touching KV; KV
 * counters make the limit hold across isolates and processes sharing one KV.
 *
 *   ["rate", "req", scope, id, minute]  → Deno.KvU64 requests in that minute
 *   ["rate", "tok", scope, id, day]     → Deno.KvU64 tokens in that UTC day
 *
 * Every counter is written with `set` and an `expireIn` that ends a minute
 * after its window, so an idle visitor's counters go away. Not with
 * `atomic().sum()`: on Deno 2.9.6 a `sum` on an existing key clears the
 * expiry an earlier `set` gave it (measured: the row's expiration goes back
 * to "never"), and a new key made by `sum` has none. Each increment is a
 * read, then a commit checked against the counters' versionstamps: a lost race
 * across processes re-reads and retries, so the count stays exact. In one
 * isolate, increments queue behind every earlier one that touches the same
 * counters, the ones a request only reads included (a request's check reads
 * the token counters that the end of the last turn writes), so a burst, or a
 * question sent as the last answer ends, costs no lost races.
 *
 * The read is skipped when this limiter already holds every counter it needs
 * from its own last read or commit (the turn's token count at its end, a
 * visitor's next request in the same minute): the commit then checks all of
 * them, the ones it only reads included, so a counter another process moved
 * loses the commit and the next attempt reads it fresh. A refusal is always
 * confirmed by a fresh read.
 */
import type { RateLimit } from "@/lib/config.ts";
import { createCounters } from "./limit_counters.ts";

/** A refusal: how long to wait. */
export interface Limited {
  retryAfterSeconds: number;
  reason: "requests" | "tokens";
}

/** The limiter the chat route uses. */
export interface RateLimiter {
  /** Counts one request; returns a refusal when a limit is exceeded. */
  check(visitorId: string, ip: string): Promise<Limited | null>;
  /** Adds the tokens of a finished turn to the day's budget. */
  addTokens(visitorId: string, ip: string, tokens: number): Promise<void>;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How long a counter outlives its window: room for clocks of isolates that disagree. */
export const COUNTER_GRACE_MS = 60_000;

/** The in-isolate counter: requests per key in the current window, answered without KV. */
function createLocalCounts(): (key: string, window: number) => number {
  const local = new Map<string, { window: number; count: number }>();
  return (key, window) => {
    const entry = local.get(key);
    if (!entry || entry.window !== window) {
      if (local.size > 10_000) local.clear();
      local.set(key, { window, count: 1 });
      return 1;
    }
    return ++entry.count;
  };
}

/** The KV-backed limiter. */
export function createRateLimiter(
  kv: Deno.Kv,
  limits: { visitor: RateLimit; ip: RateLimit },
  clock: () => number = Date.now,
): RateLimiter {
  const localCount = createLocalCounts();
  const { increment } = createCounters(kv);
  return {
    async check(visitorId, ip) {
      const t = clock();
      const minute = Math.floor(t / MINUTE);
      const day = Math.floor(t / DAY);
      const untilNextMinute = Math.ceil(((minute + 1) * MINUTE - t) / 1000);
      const untilNextDay = Math.ceil(((day + 1) * DAY - t) / 1000);
      const scopes = [["visitor", visitorId, limits.visitor], ["ip", ip, limits.ip]] as const;

      for (const [scope, id, limit] of scopes) {
        if (localCount(`${scope}:${id}`, minute) > limit.requestsPerMinute) {
          return { retryAfterSeconds: untilNextMinute, reason: "requests" };
        }
      }
      // A refused request is not counted: only requests that pass use up the minute.
      return await increment<Limited>(
        scopes.map(([scope, id]) => ["rate", "req", scope, id, minute]),
        scopes.map(([scope, id]) => ["rate", "tok", scope, id, day]),
        1n,
        (minute + 1) * MINUTE - t + COUNTER_GRACE_MS,
        (values) => {
          for (let i = 0; i < scopes.length; i++) {
            const limit = scopes[i][2];
            if (values[i] + 1 > limit.requestsPerMinute) {
              return { retryAfterSeconds: untilNextMinute, reason: "requests" };
            }
            if (values[scopes.length + i] >= limit.tokensPerDay) {
              return { retryAfterSeconds: untilNextDay, reason: "tokens" };
            }
          }
          return null;
        },
      );
    },

    async addTokens(visitorId, ip, tokens) {
      if (!(tokens > 0)) return;
      const t = clock();
      const day = Math.floor(t / DAY);
      await increment(
        [["rate", "tok", "visitor", visitorId, day], ["rate", "tok", "ip", ip, day]],
        [],
        BigInt(Math.round(tokens)),
        (day + 1) * DAY - t + COUNTER_GRACE_MS,
        () => null,
      );
    },
  };
}
