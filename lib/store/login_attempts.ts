/**
 * Failed admin sign-ins per IP, so a wrong-token loop cannot try tokens without end.
 *
 *   ["rate", "login", ip] → { count, until }: failures in the window that ends at `until`
 *
 * The window opens at the first failure and lasts `windowMs`; the entry is written with
 * an `expireIn` a little past `until` so an idle IP's entry goes away, and `until` is
 * also read back because KV deletes expired keys lazily. Only failures are counted.
 */
import { commitWithRetry } from "./kv.ts";
import { COUNTER_GRACE_MS } from "./limits.ts";

/** How many failures a window allows, and its length. */
export interface LoginLimit {
  maxFailures: number;
  windowMs: number;
}

/** The default: 10 wrong tokens per IP in 15 minutes. */
export const ADMIN_LOGIN_LIMIT: LoginLimit = { maxFailures: 10, windowMs: 15 * 60_000 };

interface Entry {
  count: number;
  until: number;
}

const ATTEMPTS = 30;

function key(ip: string): Deno.KvKey {
  return ["rate", "login", ip];
}

/** The live entry of `ip` at `now`, or null when none or its window has ended. */
function live(entry: Deno.KvEntryMaybe<Entry>, now: number): Entry | null {
  return entry.value && entry.value.until > now ? entry.value : null;
}

/** Seconds until `ip` may try again, or null when it may try now. */
export async function loginRetryAfter(
  kv: Deno.Kv,
  ip: string,
  now: number,
  limit: LoginLimit = ADMIN_LOGIN_LIMIT,
): Promise<number | null> {
  const entry = live(await kv.get<Entry>(key(ip)), now);
  if (!entry || entry.count < limit.maxFailures) return null;
  return Math.max(1, Math.ceil((entry.until - now) / 1000));
}

/** Counts one failed sign-in of `ip` (exact across processes: a lost race re-reads). */
export async function recordLoginFailure(
  kv: Deno.Kv,
  ip: string,
  now: number,
  limit: LoginLimit = ADMIN_LOGIN_LIMIT,
): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await kv.get<Entry>(key(ip));
    const entry = live(current, now) ?? { count: 0, until: now + limit.windowMs };
    const next = { count: entry.count + 1, until: entry.until };
    const op = kv.atomic().check(current).set(key(ip), next, {
      expireIn: next.until - now + COUNTER_GRACE_MS,
    });
    if ((await commitWithRetry(op)).ok) return;
    await new Promise((r) => setTimeout(r, 2 + Math.random() * 10));
  }
  throw new Error(
    `The login counter of "${ip}" kept changing under ${ATTEMPTS} attempts; retry the sign-in.`,
  );
}
