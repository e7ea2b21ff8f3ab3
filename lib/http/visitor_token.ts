/**
 * Visitor tokens: the widget's identity where the cookie cannot go. A page of
 * another site frames the assistant, and browsers keep the frame's cookies
 * (third-party) to themselves, so the frame keeps a signed token instead and
 * sends it as `Authorization: Bearer vt1.…`. A token names a visitor exactly as
 * the cookie does (same ids, same ownership rules) plus that visitor's
 * generation: `DELETE /api/me` bumps the generation in KV, so every token issued
 * before stops working at once, on every isolate.
 */

/** Prefix of every visitor token, so an admin bearer token is never mistaken for one. */
export const VISITOR_TOKEN_PREFIX = "vt1.";
/** How long a token lives, like the cookie's Max-Age: a year. */
const TOKEN_TTL_MS = 365 * 24 * 60 * 60 * 1000;
const ID = /^[A-Za-z0-9_-]{16,64}$/;

const encoder = new TextEncoder();

/** Issues, verifies and revokes visitor tokens. */
export interface VisitorTokens {
  /** A token for `visitorId` (a new random visitor when absent), valid until `expiresAt`. */
  issue(visitorId?: string): Promise<{ token: string; visitorId: string; expiresAt: number }>;
  /** The visitor a token names, or null when it is forged, expired or revoked. */
  verify(token: string): Promise<string | null>;
  /** Invalidates every token issued so far for `visitorId`. */
  revoke(visitorId: string): Promise<void>;
}

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** A fresh random visitor id, in the cookie's format. */
export function newVisitorId(): string {
  return b64url(crypto.getRandomValues(new Uint8Array(18)));
}

/**
 * Tokens signed with `secret` (HMAC-SHA256, a purpose of its own so a cookie value is never
 * a token) whose generations live in `kv`. `clock` is for tests.
 */
export async function createVisitorTokens(
  secret: string,
  kv: Deno.Kv,
  { clock = Date.now }: { clock?: () => number } = {},
): Promise<VisitorTokens> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = async (payload: string) =>
    b64url(
      new Uint8Array(
        await crypto.subtle.sign("HMAC", key, encoder.encode(`visitor-token:${payload}`)),
      ),
    );
  const generation = async (id: string): Promise<bigint> =>
    (await kv.get<Deno.KvU64>(["visitor_generation", id])).value?.value ?? 0n;

  return {
    async issue(visitorId = newVisitorId()) {
      if (!ID.test(visitorId)) throw new Error(`Visitor id "${visitorId}" is not a valid id.`);
      const expiresAt = clock() + TOKEN_TTL_MS;
      const payload = `${visitorId}.${await generation(visitorId)}.${expiresAt}`;
      return {
        token: `${VISITOR_TOKEN_PREFIX}${payload}.${await mac(payload)}`,
        visitorId,
        expiresAt,
      };
    },
    async verify(token) {
      if (!token.startsWith(VISITOR_TOKEN_PREFIX)) return null;
      const parts = token.slice(VISITOR_TOKEN_PREFIX.length).split(".");
      if (parts.length !== 4) return null;
      const [id, gen, exp, given] = parts;
      if (!ID.test(id) || !/^\d{1,20}$/.test(gen) || !/^\d{1,16}$/.test(exp)) return null;
      if (!timingSafeEqual(given, await mac(`${id}.${gen}.${exp}`))) return null;
      if (Number(exp) <= clock()) return null;
      // Read on every request (strong consistency): a revocation must hold on every isolate.
      return BigInt(gen) === await generation(id) ? id : null;
    },
    async revoke(visitorId) {
      await kv.atomic().sum(["visitor_generation", visitorId], 1n).commit();
    },
  };
}

/** Compares two MACs in time independent of where they differ. */
function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The visitor token of `Authorization: Bearer vt1.…`, or null (no header, or another scheme). */
export function bearerVisitorToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
  return m && m[1].startsWith(VISITOR_TOKEN_PREFIX) ? m[1] : null;
}
