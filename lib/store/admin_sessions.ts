/**
 * Admin sessions kept on the server, so a session can be ended (sign-out deletes it) and a
 * cookie carries nothing but a random id.
 *
 *   ["admin_session", id] → AdminSessionRecord   (expireIn: the session's life)
 *
 * KV deletes expired keys lazily, so `expiresAt` is also checked on every read.
 */

/** What the server knows of one session. */
export interface AdminSessionRecord {
  /** When the session ends (ms since the epoch). */
  expiresAt: number;
  /**
   * A keyed hash of the ADMIN_TOKEN the session was opened with: a session outlives no change
   * of the token.
   */
  tokenTag: string;
}

/** Saves, reads and deletes admin sessions. */
export interface AdminSessionStore {
  save(id: string, record: AdminSessionRecord, now: number): Promise<void>;
  /** The record of `id` while it lasts at `now`, else null. */
  get(id: string, now: number): Promise<AdminSessionRecord | null>;
  delete(id: string): Promise<void>;
}

const key = (id: string): Deno.KvKey => ["admin_session", id];

/** The store over `kv`. */
export function createAdminSessionStore(kv: Deno.Kv): AdminSessionStore {
  return {
    async save(id, record, now) {
      await kv.set(key(id), record, { expireIn: Math.max(1, record.expiresAt - now) });
    },
    async get(id, now) {
      const entry = await kv.get<AdminSessionRecord>(key(id));
      return entry.value && entry.value.expiresAt > now ? entry.value : null;
    },
    async delete(id) {
      await kv.delete(key(id));
    },
  };
}
