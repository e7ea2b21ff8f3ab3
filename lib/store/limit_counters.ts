/**
 * The KV counters behind the rate limits (the read-then-checked-commit increment described in
 * limits.ts), with the two things that spare KV work in one isolate: a queue per counter, so
 * increments of the same counters do not race each other, and a cache of the counters as this
 * isolate last read or wrote them.
 */
import { Lru } from "@/lib/lru.ts";
import { commitWithRetry } from "./kv.ts";

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

/** Increments of KV counters. */
export interface Counters {
  /**
   * Reads the counters `keys` (and `alsoRead`), or recalls them, lets `decide` refuse, else
   * adds `n` to each counter in one commit checked against what was read; retries a lost
   * race. `expireIn` is relative to now, so a fake clock gives real expiries.
   */
  increment<R>(
    keys: Deno.KvKey[],
    alsoRead: Deno.KvKey[],
    n: bigint,
    expireIn: number,
    decide: (values: number[]) => R | null,
  ): Promise<R | null>;
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

/** The counters as this isolate last read or wrote them. */
function createKnownCounters(kv: Deno.Kv) {
  const known = new Lru<string, Counter>(KNOWN_COUNTERS);
  return {
    /** Every one of `names` from memory, or null when one is missing. */
    recall(names: string[]): Counter[] | null {
      const counters: Counter[] = [];
      for (const name of names) {
        const counter = known.get(name);
        if (!counter) return null;
        counters.push(counter);
      }
      return counters;
    },
    /** Reads the counters from KV, remembering them. */
    async read(all: Deno.KvKey[], names: string[]): Promise<Counter[]> {
      const entries = await kv.getMany<Deno.KvU64[]>(all);
      return entries.map((e, i) => {
        const counter = { value: e.value?.value ?? 0n, versionstamp: e.versionstamp };
        known.set(names[i], counter);
        return counter;
      });
    },
    set: (name: string, counter: Counter) => known.set(name, counter),
    forget: (names: string[]) => names.forEach((name) => known.delete(name)),
  };
}

/** Creates the counters over `kv`. */
export function createCounters(kv: Deno.Kv): Counters {
  const serial = createQueues();
  const known = createKnownCounters(kv);

  /** One commit of an increment; its versionstamp, or null when a check lost. */
  async function commitIncrement(
    keys: Deno.KvKey[],
    alsoRead: Deno.KvKey[],
    counters: Counter[],
    n: bigint,
    expireIn: number,
    recalled: boolean,
  ): Promise<string | null> {
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
    return result.ok ? result.versionstamp : null;
  }

  return {
    increment(keys, alsoRead, n, expireIn, decide) {
      const all = [...keys, ...alsoRead];
      const names = all.map((k) => JSON.stringify(k));
      // Queued behind whatever writes a counter this reads too: a check racing the last turn's
      // token count would lose its commit and read again (a read and a commit more per turn).
      return serial(names, async () => {
        let trustMemory = true;
        for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
          const recalled = trustMemory ? known.recall(names) : null;
          trustMemory = false;
          const counters = recalled ?? await known.read(all, names);
          const refusal = decide(counters.map((c) => Number(c.value)));
          if (refusal && recalled) continue; // confirmed by a fresh read first
          if (refusal) return refusal;
          const versionstamp = await commitIncrement(
            keys,
            alsoRead,
            counters,
            n,
            expireIn,
            recalled !== null,
          );
          if (versionstamp) {
            keys.forEach((_, i) =>
              known.set(names[i], { value: counters[i].value + n, versionstamp })
            );
            return null;
          }
          known.forget(names);
          // A stale memory is no contention: read again at once.
          if (recalled) continue;
          await new Promise((r) =>
            setTimeout(r, 2 + Math.random() * 10 * Math.min(attempt + 1, 8))
          );
        }
        throw new Error(
          `Rate-limit counter ${
            JSON.stringify(keys[0])
          } kept changing under ${ATTEMPTS} attempts; ` +
            "retry the request.",
        );
      });
    },
  };
}
