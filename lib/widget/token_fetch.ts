/**
 * The widget frame's fetch: every call to this origin's /api/ carries the visitor token
 * (`Authorization: Bearer …`) and no cookie, the same in every browser whatever its
 * third-party cookie policy. The first call asks `POST /api/visitor-token` for a token and
 * keeps it in `storage` (the frame's localStorage, which browsers partition by the
 * embedding site; see frame_storage.ts); a token refused with 401 (revoked by
 * `DELETE /api/me`, expired) is replaced once and the call repeated. A successful
 * `DELETE /api/me` forgets the token, so the next call starts a new visitor at once.
 */
import type { FrameStorage } from "./frame_storage.ts";

/** Where the token is kept (localStorage's shape). */
export type TokenStorage = FrameStorage;

/** Storage key of the token. */
export const TOKEN_KEY = "site-assistant:visitor-token";

/**
 * A fetch for the frame at `origin`: calls to `origin`'s /api/ go with the token, other
 * calls go through `base` unchanged (browser-run agents' own APIs, static files).
 */
export function createTokenFetch(
  { base, origin, storage }: { base: typeof fetch; origin: string; storage: TokenStorage | null },
): typeof fetch {
  // Where storage works it is the only truth (another part of the frame may clear it);
  // memory holds the token only when the browser refuses storage.
  let memory: string | null = null;
  let pending: Promise<string> | null = null;
  const read = () => {
    try {
      return storage ? storage.getItem(TOKEN_KEY) : memory;
    } catch {
      return memory; // storage refused (privacy settings): the token lives as long as the frame
    }
  };
  const keep = (token: string | null) => {
    memory = token;
    try {
      if (token) storage?.setItem(TOKEN_KEY, token);
      else storage?.removeItem(TOKEN_KEY);
    } catch { /* memory holds it */ }
  };
  const token = (): Promise<string> => {
    const known = read();
    if (known) return Promise.resolve(known);
    pending ??= base(`${origin}/api/visitor-token`, { method: "POST", credentials: "omit" })
      .then(async (res) => {
        if (!res.ok) throw new Error(`Could not get a visitor token: HTTP ${res.status}.`);
        const { token } = await res.json() as { token: string };
        keep(token);
        return token;
      }).finally(() => (pending = null));
    return pending;
  };

  return async (input, init) => {
    const req = new Request(typeof input === "string" ? new URL(input, origin) : input, init);
    const url = new URL(req.url);
    if (url.origin !== origin || !url.pathname.startsWith("/api/")) return base(req);
    const send = async (fresh: boolean) => {
      if (fresh) keep(null);
      const headers = new Headers(req.headers);
      headers.set("authorization", `Bearer ${await token()}`);
      return base(new Request(req.clone(), { headers, credentials: "omit" }));
    };
    const res = await send(false);
    // The visitor is gone (its chats deleted, its tokens revoked): do not offer the token again.
    if (res.ok && req.method === "DELETE" && url.pathname === "/api/me") keep(null);
    if (res.status !== 401) return res;
    await res.body?.cancel();
    return send(true);
  };
}
