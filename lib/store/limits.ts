/**
 * Rate limits per visitor and per IP: requests a minute and tokens a day.
 *
 * An in-isolate counter answers an obvious excess without touching KV; KV
 * counters make the limit hold across isolates and processes sharing one KV.
 * They grow with `atomic().sum()`, which never conflicts, so a burst from one
 * IP costs one commit each instead of retried read-modify-writes. `sum` cannot
 * set `expireIn`, so each increment also deletes the same counter's window
 * before last: an active visitor keeps at most two windows.
 *
 *   ["rate", "req", scope, id, minute]  → Deno.KvU64 requests in that minute
 *   ["rate", "tok", scope, id, day]     → Deno.KvU64 tokens in that UTC day
 */
import type { RateLimit } from "@/lib/config.ts";
import { commitWithRetry } from "./kv.ts";

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

/** The KV-backed limiter. */
export function createRateLimiter(
  kv: Deno.Kv,
  limits: { visitor: RateLimit; ip: RateLimit },
  clock: () => number = Date.now,
): RateLimiter {
  const local = new Map<string, { window: number; count: number }>();

  function localCount(key: string, window: number): number {
    const entry = local.get(key);
    if (!entry || entry.window !== window) {
      if (local.size > 10_000) local.clear();
      local.set(key, { window, count: 1 });
      return 1;
    }
    return ++entry.count;
  }

  /**
   * Adds `n` to each counter of `window` in one atomic commit (no checks, so no lost
   * races) and drops the counter of `window - 2`; returns the new values.
   */
  async function increment(
    keys: (window: number) => Deno.KvKey[],
    window: number,
    n: bigint,
    alsoRead: Deno.KvKey[] = [],
  ): Promise<number[]> {
    const op = kv.atomic();
    for (const key of keys(window)) op.sum(key, n);
    for (const key of keys(window - 2)) op.delete(key);
    await commitWithRetry(op);
    // One read for the new values and any other counters the caller needs.
    const values = await kv.getMany<Deno.KvU64[]>([...keys(window), ...alsoRead]);
    return values.map((e) => Number(e.value?.value ?? 0n));
  }

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
      const values = await increment(
        (m) => scopes.map(([scope, id]) => ["rate", "req", scope, id, m]),
        minute,
        1n,
        scopes.map(([scope, id]) => ["rate", "tok", scope, id, day]),
      );
      const requests = values.slice(0, scopes.length);
      const tokens = values.slice(scopes.length);
      for (let i = 0; i < scopes.length; i++) {
        const limit = scopes[i][2];
        if (requests[i] > limit.requestsPerMinute) {
          return { retryAfterSeconds: untilNextMinute, reason: "requests" };
        }
        if (tokens[i] >= limit.tokensPerDay) {
          return { retryAfterSeconds: untilNextDay, reason: "tokens" };
        }
      }
      return null;
    },

    async addTokens(visitorId, ip, tokens) {
      if (!(tokens > 0)) return;
      const day = Math.floor(clock() / DAY);
      await increment(
        (d) => [["rate", "tok", "visitor", visitorId, d], ["rate", "tok", "ip", ip, d]],
        day,
        BigInt(Math.round(tokens)),
      );
    },
  };
}
