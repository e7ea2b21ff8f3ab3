/**
 * Visitor identity: a random id in a signed, HttpOnly, SameSite=Lax cookie
 * (HMAC-SHA256). No account, no personal data: the id only ties a browser to
 * its own chats. The embedded widget, which cannot use the cookie, sends a
 * visitor token instead (`Authorization: Bearer vt1.…`, see visitor_token.ts).
 */
import { productionReason } from "./production.ts";
import { HttpError } from "./errors.ts";
import { bearerVisitorToken, type VisitorTokens } from "./visitor_token.ts";

/** Name of the visitor cookie over plain HTTP (local development), and its legacy name. */
export const VISITOR_COOKIE = "visitor";
/**
 * Name of the visitor cookie when cookies are Secure: the `__Host-` prefix makes
 * the browser refuse it unless it is Secure, has Path=/ and no Domain.
 */
export const SECURE_VISITOR_COOKIE = "__Host-visitor";
const ONE_YEAR = 60 * 60 * 24 * 365;

const encoder = new TextEncoder();

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(
    /=+$/,
    "",
  );
}

/** Signs and verifies visitor ids with one secret. */
export interface VisitorSigner {
  sign(visitorId: string): Promise<string>;
  verify(value: string): Promise<string | null>;
  /** Whether the cookies it signs are Secure (`__Host-visitor`); the default of `resolveVisitor`. */
  readonly secure?: boolean;
  /** Visitor tokens (the widget's identity); without them a bearer visitor token is refused. */
  readonly tokens?: VisitorTokens;
}

/**
 * Builds a signer over `secret` (at least 32 characters). `secure` is the
 * deployment's cookie policy (`secureCookiesFromEnv`), carried for `resolveVisitor`.
 */
export async function createVisitorSigner(
  secret: string,
  { secure = false, tokens }: { secure?: boolean; tokens?: VisitorTokens } = {},
): Promise<VisitorSigner> {
  if (secret.length < 32) throw new Error("SESSION_SECRET must be at least 32 characters long.");
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  async function mac(id: string): Promise<string> {
    return b64url(
      new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`visitor:${id}`))),
    );
  }
  // Verified cookie values, so a returning visitor costs one map lookup instead of an HMAC.
  const verified = new Map<string, string>();
  return {
    secure,
    tokens,
    async sign(id) {
      return `${id}.${await mac(id)}`;
    },
    async verify(value) {
      const known = verified.get(value);
      if (known) return known;
      const dot = value.lastIndexOf(".");
      if (dot <= 0) return null;
      const id = value.slice(0, dot);
      if (!/^[A-Za-z0-9_-]{16,64}$/.test(id)) return null;
      const expected = await mac(id);
      const given = value.slice(dot + 1);
      // Constant-time comparison of the two MACs.
      if (given.length !== expected.length) return null;
      let diff = 0;
      for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ expected.charCodeAt(i);
      if (diff !== 0) return null;
      if (verified.size >= 10_000) verified.clear();
      verified.set(value, id);
      return id;
    },
  };
}

/**
 * Reads one cookie from a request. A value that is not valid percent-encoding is
 * treated as no cookie: a client's garbage must never fail the request.
 */
export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * Whether cookies are Secure in this deployment. Decided from the deployment, not
 * from `req.url`, which says http behind a TLS-terminating proxy: a production start
 * (Deno Deploy or APP_ENV=production, see `productionReason`) or COOKIE_SECURE=true turns
 * it on, COOKIE_SECURE=false off.
 */
export function secureCookiesFromEnv(env: Record<string, string | undefined>): boolean {
  const forced = env.COOKIE_SECURE?.trim().toLowerCase();
  if (forced === "true") return true;
  if (forced === "false") return false;
  if (forced) {
    throw new Error(
      `COOKIE_SECURE must be "true" or "false", got "${env.COOKIE_SECURE}". Unset it to decide from the deployment.`,
    );
  }
  return productionReason(env) !== null;
}

/**
 * The verified visitor of a request and the cookie name it came under (`name` null for a
 * token). A visitor token wins over cookies; a token that fails verification (forged,
 * expired, revoked by `DELETE /api/me`) is a 401 `unauthorized`, never a silent new visitor,
 * so the widget knows to ask for a new token.
 */
async function verifiedVisitor(
  req: Request,
  signer: VisitorSigner,
): Promise<{ id: string; signed: string; name: string | null } | null> {
  const token = bearerVisitorToken(req);
  if (token) {
    const id = await signer.tokens?.verify(token);
    if (id) return { id, signed: token, name: null };
    throw new HttpError(
      "unauthorized",
      "The visitor token is invalid, expired or revoked. Ask POST /api/visitor-token for a new one.",
    );
  }
  // The `__Host-` cookie first; the legacy name keeps earlier visitors' chats.
  for (const name of [SECURE_VISITOR_COOKIE, VISITOR_COOKIE]) {
    const raw = readCookie(req, name);
    const id = raw ? await signer.verify(raw) : null;
    if (id) return { id, signed: raw!, name };
  }
  return null;
}

/** Cookie options of `resolveVisitor`. */
export interface VisitorCookieOptions {
  /** Secure cookie under `__Host-visitor`; default: the signer's `secure` (false without one). */
  secure?: boolean;
}

/**
 * The visitor of a request: an existing verified id, or a new one with the cookie
 * to set. A visitor known by the legacy `visitor` cookie while cookies are Secure
 * gets the same id re-issued as `__Host-visitor`.
 */
export async function resolveVisitor(
  req: Request,
  signer: VisitorSigner,
  options: VisitorCookieOptions = {},
): Promise<{ id: string; setCookie: string | null }> {
  const secure = options.secure ?? signer.secure ?? false;
  const known = await verifiedVisitor(req, signer);
  if (known) {
    const reissue = secure && known.name === VISITOR_COOKIE;
    return { id: known.id, setCookie: reissue ? visitorCookie(known.signed, true) : null };
  }
  const fresh = b64url(crypto.getRandomValues(new Uint8Array(18)));
  return { id: fresh, setCookie: visitorCookie(await signer.sign(fresh), secure) };
}

/**
 * The Set-Cookie re-issuing a legacy `visitor` cookie as `__Host-visitor`, or null
 * when there is nothing to move (not Secure, no legacy cookie, or already moved).
 */
export async function migrateVisitorCookie(
  req: Request,
  signer: VisitorSigner,
  secure: boolean,
): Promise<string | null> {
  // A widget request carries a token and no cookie worth moving.
  if (!secure || bearerVisitorToken(req)) return null;
  const known = await verifiedVisitor(req, signer);
  return known?.name === VISITOR_COOKIE ? visitorCookie(known.signed, true) : null;
}

/** The Set-Cookie value for a signed visitor id (`__Host-visitor` when `secure`). */
export function visitorCookie(signed: string, secure: boolean): string {
  const name = secure ? SECURE_VISITOR_COOKIE : VISITOR_COOKIE;
  return `${name}=${signed}; Path=/; Max-Age=${ONE_YEAR}; HttpOnly; SameSite=Lax${
    secure ? "; Secure" : ""
  }`;
}

/** A Set-Cookie value that removes the visitor cookie of this deployment's name. */
export function clearVisitorCookie(secure: boolean): string {
  const name = secure ? SECURE_VISITOR_COOKIE : VISITOR_COOKIE;
  return `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * Set-Cookie values that forget the visitor under every name it may be known by:
 * when Secure, the legacy `visitor` cookie too (a browser refuses `__Host-` without Secure).
 */
export function clearVisitorCookies(secure: boolean): string[] {
  if (!secure) return [clearVisitorCookie(false)];
  return [
    clearVisitorCookie(true),
    `${VISITOR_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure`,
  ];
}

/**
 * The cookie secret: SESSION_SECRET, required in production; locally one is
 * generated once and kept in KV so visitors survive restarts.
 */
export async function loadSessionSecret(
  kv: Deno.Kv,
  env: Record<string, string | undefined>,
): Promise<string> {
  const configured = env.SESSION_SECRET;
  if (configured) return configured;
  if (productionReason(env) !== null) {
    throw new Error(
      "SESSION_SECRET is not set. Set it to a random string of at least 32 characters in the project's environment (e.g. `openssl rand -base64 48`).",
    );
  }
  const key = ["secret", "session"];
  const existing = await kv.get<string>(key);
  if (existing.value) return existing.value;
  const secret = b64url(crypto.getRandomValues(new Uint8Array(48)));
  const res = await kv.atomic().check(existing).set(key, secret).commit();
  if (res.ok) return secret;
  return (await kv.get<string>(key)).value!;
}

/** The verified visitor id of a request, or null (never creates one: for reads). */
export async function existingVisitor(req: Request, signer: VisitorSigner): Promise<string | null> {
  return (await verifiedVisitor(req, signer))?.id ?? null;
}
