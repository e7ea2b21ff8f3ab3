/**
 * Failed admin sign-ins, so wrong tokens cannot be tried without end: per address, per IPv6
 * /64, and all clients together (a ceiling that rotating addresses cannot get around).
 *
 *   ["rate", "login", "address", address] → { count, until }
 *   ["rate", "login", "network", network] → { count, until }
 *   ["rate", "login", "all"]              → { count, until }
 *
 * A try is taken from every allowance BEFORE the token is compared, in one commit checked
 * against the versionstamps it read, so a burst of parallel tries can never be admitted past
 * a limit; a right token gives its try back ({@linkcode LoginAttempts.release}), so only
 * failures stay counted. Each window opens at its first try and lasts `windowMs`; entries
 * carry an `expireIn` a little past `until`, and `until` is read back because KV deletes
 * expired keys lazily. Not `atomic().sum()`: it clears the expiry (see limits.ts).
 *
 * In one isolate the commits queue behind each other (they all touch the global key), so a
 * burst costs no lost races; a race lost to another process re-reads, a bounded number of
 * times, and then the try is refused as busy (a 429 with a short wait, never a 500).
 */
import { commitWithRetry } from "./kv.ts";
import { COUNTER_GRACE_MS } from "./limits.ts";
import type { ClientAddress } from "@/lib/net/ip_network.ts";

/** How many failures each window allows, and its length. */
export interface LoginLimit {
  /** Failures one address may have. */
  perAddress: number;
  /** Failures all addresses of one IPv6 /64 may have together. */
  perNetwork: number;
  /** Failures all clients may have together. */
  global: number;
  windowMs: number;
}

/** The default: 10 wrong tokens per address, 20 per /64 and 100 in all, per 15 minutes. */
export const ADMIN_LOGIN_LIMIT: Readonly<LoginLimit> = Object.freeze({
  perAddress: 10,
  perNetwork: 20,
  global: 100,
  windowMs: 15 * 60_000,
});

/** A try taken by {@linkcode LoginAttempts.admit}, to give back when the token was right. */
export interface LoginTicket {
  keys: Deno.KvKey[];
}

/** What {@linkcode LoginAttempts.admit} decided. */
export type Admission =
  | { admitted: true; ticket: LoginTicket }
  | { admitted: false; retryAfterSeconds: number };

/** The limiter of admin sign-in tries. */
export interface LoginAttempts {
  /** Takes one try from each allowance of `client` in one atomic commit, or says how long to wait. */
  admit(client: ClientAddress, now: number): Promise<Admission>;
  /** Gives back the try of a right token (best effort: a lost race leaves it counted). */
  release(ticket: LoginTicket, now: number): Promise<void>;
  /** Seconds until `client` may try again, or null when it may try now (reads only). */
  retryAfter(client: ClientAddress, now: number): Promise<number | null>;
}

interface Entry {
  count: number;
  until: number;
}

/** Commits tried before a try is refused as busy. */
const ATTEMPTS = 8;
/** The wait a busy refusal asks for. */
const BUSY_RETRY_SECONDS = 1;

/** The counters of `client` with their limits. */
function scopes(client: ClientAddress, limit: LoginLimit): [Deno.KvKey, number][] {
  const all: [Deno.KvKey, number][] = [
    [["rate", "login", "address", client.address], limit.perAddress],
    [["rate", "login", "all"], limit.global],
  ];
  if (client.network) all.push([["rate", "login", "network", client.network], limit.perNetwork]);
  return all;
}

/** The live entry at `now`, or null when none or its window has ended. */
function live(entry: Deno.KvEntryMaybe<Entry>, now: number): Entry | null {
  return entry.value && entry.value.until > now ? entry.value : null;
}

/** Seconds until every full counter among `entries` has reset, or null when none is full. */
function waitFor(entries: (Entry | null)[], limits: number[], now: number): number | null {
  let until = 0;
  entries.forEach((e, i) => {
    if (e && e.count >= limits[i]) until = Math.max(until, e.until);
  });
  return until ? Math.max(1, Math.ceil((until - now) / 1000)) : null;
}

const pause = (attempt: number) =>
  new Promise((r) => setTimeout(r, 2 + Math.random() * 10 * (attempt + 1)));

/** Runs `fn` after every earlier call of the returned function has finished. */
function createQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return function serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}

/** Builds the limiter over `kv`; `limit` defaults to {@linkcode ADMIN_LOGIN_LIMIT}. */
export function createLoginAttempts(
  kv: Deno.Kv,
  limit: LoginLimit = ADMIN_LOGIN_LIMIT,
): LoginAttempts {
  const serial = createQueue();

  /** Reads the counters of `keys`, lets `change` decide, commits checked; retries a lost race. */
  function update<R>(
    keys: Deno.KvKey[],
    now: number,
    change: (entries: (Entry | null)[]) => { refuse: R } | { next: (Entry | null)[]; done: R },
    busy: R,
  ): Promise<R> {
    return serial(async () => {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const read = await kv.getMany<Entry[]>(keys);
        const decided = change(read.map((e) => live(e, now)));
        if ("refuse" in decided) return decided.refuse;
        const op = kv.atomic();
        keys.forEach((key, i) => {
          op.check(read[i]);
          const next = decided.next[i];
          if (next) op.set(key, next, { expireIn: next.until - now + COUNTER_GRACE_MS });
        });
        if ((await commitWithRetry(op)).ok) return decided.done;
        await pause(attempt);
      }
      return busy;
    });
  }

  return {
    admit(client, now) {
      const [keys, limits] = unzip(scopes(client, limit));
      return update<Admission>(keys, now, (entries) => {
        const wait = waitFor(entries, limits, now);
        if (wait !== null) return { refuse: { admitted: false, retryAfterSeconds: wait } };
        const next = entries.map((e) =>
          e ? { count: e.count + 1, until: e.until } : { count: 1, until: now + limit.windowMs }
        );
        return { next, done: { admitted: true, ticket: { keys } } };
      }, { admitted: false, retryAfterSeconds: BUSY_RETRY_SECONDS });
    },

    async release(ticket, now) {
      await update<void>(ticket.keys, now, (entries) => ({
        next: entries.map((e) => e && e.count > 0 ? { count: e.count - 1, until: e.until } : null),
        done: undefined,
      }), undefined);
    },

    async retryAfter(client, now) {
      const [keys, limits] = unzip(scopes(client, limit));
      const entries = await kv.getMany<Entry[]>(keys);
      return waitFor(entries.map((e) => live(e, now)), limits, now);
    },
  };
}

function unzip<A, B>(pairs: [A, B][]): [A[], B[]] {
  return [pairs.map((p) => p[0]), pairs.map((p) => p[1])];
}

/**
 * The limit from the environment: `ADMIN_LOGIN_GLOBAL_MAX_FAILURES` (a positive integer)
 * replaces the default ceiling over all clients.
 */
export function loginLimitFromEnv(env: Record<string, string | undefined>): LoginLimit {
  const raw = env.ADMIN_LOGIN_GLOBAL_MAX_FAILURES?.trim();
  if (!raw) return { ...ADMIN_LOGIN_LIMIT };
  const global = Number(raw);
  if (!Number.isSafeInteger(global) || global < 1) {
    throw new Error(
      `ADMIN_LOGIN_GLOBAL_MAX_FAILURES is "${raw}": set it to a whole number of at least 1 ` +
        `(wrong admin tokens from all addresses per 15 minutes; default ${ADMIN_LOGIN_LIMIT.global}), or unset it.`,
    );
  }
  return { ...ADMIN_LOGIN_LIMIT, global };
}
