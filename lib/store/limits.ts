/**
 * Rate limits per visitor and per IP: requests a minute and tokens a day.
 *
 * An in-isolate counter answers an obvious excess without touching KV; KV
 * counters (checked atomic increments with `expireIn`) make the limit hold
 * across isolates and processes sharing one KV.
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
   * Adds `n` to each counter in one atomic commit and returns the new values.
   * `sum` cannot set `expireIn`, so this is a checked read-modify-write, retried on a lost race.
   */
  async function increment(keys: Deno.KvKey[], n: bigint, expireIn: number): Promise<number[]> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const current = await kv.getMany<Deno.KvU64[]>(keys);
      const next = current.map((e) => (e.value?.value ?? 0n) + n);
      const op = kv.atomic();
      current.forEach((e, i) => op.check(e).set(keys[i], new Deno.KvU64(next[i]), { expireIn }));
      if ((await commitWithRetry(op)).ok) return next.map(Number);
      await new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));
    }
    throw new Error(`Rate-limit counters ${JSON.stringify(keys)} are too contended.`);
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
      const reqKeys = scopes.map(([scope, id]) => ["rate", "req", scope, id, minute]);
      const tokKeys = scopes.map(([scope, id]) => ["rate", "tok", scope, id, day]);
      const requests = await increment(reqKeys, 1n, 2 * MINUTE);
      const tokens = await kv.getMany<Deno.KvU64[]>(tokKeys);
      for (let i = 0; i < scopes.length; i++) {
        const limit = scopes[i][2];
        if (requests[i] > limit.requestsPerMinute) {
          return { retryAfterSeconds: untilNextMinute, reason: "requests" };
        }
        if (Number(tokens[i].value?.value ?? 0n) >= limit.tokensPerDay) {
          return { retryAfterSeconds: untilNextDay, reason: "tokens" };
        }
      }
      return null;
    },

    async addTokens(visitorId, ip, tokens) {
      if (!(tokens > 0)) return;
      const day = Math.floor(clock() / DAY);
      await increment(
        [["rate", "tok", "visitor", visitorId, day], ["rate", "tok", "ip", ip, day]],
        BigInt(Math.round(tokens)),
        2 * DAY,
      );
    },
  };
}
