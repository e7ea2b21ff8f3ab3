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
import { Lru } from "@/lib/lru.ts";
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
/** How long a counter outlives its window: room for clocks of isolates that disagree. */
export const COUNTER_GRACE_MS = 60_000;
/** Commits tried before giving up on a counter that other processes keep moving. */
const ATTEMPTS = 30;
/** Counters remembered per limiter (a few per visitor and IP seen lately). */
const KNOWN_COUNTERS = 10_000;

/** A counter as this limiter last read or wrote it. */
interface Counter {
  value: bigint;
  /** null: the key did not exist. */
  versionstamp: string | null;
}

/** Runs `fn` after every earlier call that named one of `names` has finished. */
function createQueues() {
  const tails = new Map<string, Promise<void>>();
  return async function serial<T>(names: string[], fn: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const done = new Promise<void>((r) => (release = r));
    const before = names.map((n) => tails.get(n));
    for (const n of names) tails.set(n, done);
    try {
      await Promise.all(before);
      return await fn();
    } finally {
      release();
      for (const n of names) if (tails.get(n) === done) tails.delete(n);
    }
  };
}

/** The KV-backed limiter. */
export function createRateLimiter(
  kv: Deno.Kv,
  limits: { visitor: RateLimit; ip: RateLimit },
  clock: () => number = Date.now,
): RateLimiter {
  const local = new Map<string, { window: number; count: number }>();
  const serial = createQueues();

  function localCount(key: string, window: number): number {
    const entry = local.get(key);
    if (!entry || entry.window !== window) {
      if (local.size > 10_000) local.clear();
      local.set(key, { window, count: 1 });
      return 1;
    }
    return ++entry.count;
  }

  const known = new Lru<string, Counter>(KNOWN_COUNTERS);
  const recall = (names: string[]): Counter[] | null => {
    const counters: Counter[] = [];
    for (const name of names) {
      const counter = known.get(name);
      if (!counter) return null;
      counters.push(counter);
    }
    return counters;
  };
  const read = async (all: Deno.KvKey[], names: string[]): Promise<Counter[]> => {
    const entries = await kv.getMany<Deno.KvU64[]>(all);
    return entries.map((e, i) => {
      const counter = { value: e.value?.value ?? 0n, versionstamp: e.versionstamp };
      known.set(names[i], counter);
      return counter;
    });
  };

  /**
   * Reads the counters `keys` (and `alsoRead`), or recalls them, lets `decide` refuse, else
   * adds `n` to each counter in one commit checked against what was read; retries a lost
   * race. `expireIn` is relative to now, so a fake clock gives real expiries.
   */
  function increment<R>(
    keys: Deno.KvKey[],
    alsoRead: Deno.KvKey[],
    n: bigint,
    expireIn: number,
    decide: (values: number[]) => R | null,
  ): Promise<R | null> {
    const all = [...keys, ...alsoRead];
    const names = all.map((k) => JSON.stringify(k));
    // Queued behind whatever writes a counter this reads too: a check racing the last turn's
    // token count would lose its commit and read again (a read and a commit more per turn).
    return serial(names, async () => {
      let trustMemory = true;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const recalled = trustMemory ? recall(names) : null;
        trustMemory = false;
        const counters = recalled ?? await read(all, names);
        const refusal = decide(counters.map((c) => Number(c.value)));
        if (refusal && recalled) continue; // confirmed by a fresh read first
        if (refusal) return refusal;
        const op = kv.atomic();
        keys.forEach((key, i) => {
          op.check({ key, versionstamp: counters[i].versionstamp })
            .set(key, new Deno.KvU64(counters[i].value + n), { expireIn });
        });
        // What was only read was read from memory: it must still be what KV holds.
        if (recalled) {
          alsoRead.forEach((key, i) =>
            op.check({ key, versionstamp: counters[keys.length + i].versionstamp })
          );
        }
        const result = await commitWithRetry(op);
        if (result.ok) {
          keys.forEach((_, i) =>
            known.set(names[i], {
              value: counters[i].value + n,
              versionstamp: result.versionstamp,
            })
          );
          return null;
        }
        names.forEach((name) => known.delete(name));
        // A stale memory is no contention: read again at once.
        if (recalled) continue;
        await new Promise((r) => setTimeout(r, 2 + Math.random() * 10 * Math.min(attempt + 1, 8)));
      }
      throw new Error(
        `Rate-limit counter ${JSON.stringify(keys[0])} kept changing under ${ATTEMPTS} attempts; ` +
          "retry the request.",
      );
    });
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
