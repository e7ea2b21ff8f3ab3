/**
 * The admin's browser session: after the login form (/admin/login) the owner carries a
 * cookie instead of the `Authorization` header. The cookie holds a random 256-bit session id
 * and its HMAC-SHA256 under a key derived from SESSION_SECRET (so a forged id is refused
 * before KV is read); the session itself lives in KV (lib/store/admin_sessions.ts), where
 * sign-out deletes it and its expiry is checked on every read. Nothing in the cookie depends
 * on ADMIN_TOKEN, so a cookie tests no guess of the token; a session opened with another
 * token than today's is refused. `__Host-admin` (Secure, Path=/, no Domain) wherever cookies
 * are Secure; HttpOnly and SameSite=Strict always.
 */
import type { AdminSessionStore } from "@/lib/store/admin_sessions.ts";
import { HttpError } from "../http/errors.ts";
import { deriveHmacKey } from "@/lib/crypto/hmac_key.ts";

/** The cookie's name over plain HTTP (local development). */
export const ADMIN_COOKIE = "admin";
/** The cookie's name wherever cookies are Secure. */
export const SECURE_ADMIN_COOKIE = "__Host-admin";
/** How long a login lasts. */
export const ADMIN_SESSION_SECONDS = 12 * 60 * 60;

/** What a request's admin cookie is worth. */
export type SessionCheck = "none" | "live" | "refused";

/** Starts, checks and ends admin sessions. */
export interface AdminSessions {
  /** Opens a session for `token` (today's ADMIN_TOKEN): the Set-Cookie that carries it. */
  start(token: string, now: number): Promise<string>;
  /**
   * `none`: no admin cookie; `live`: a session of `token` that lasts at `now`; `refused`: a
   * cookie that opens nothing (forged, ended, expired, or from another token).
   */
  check(req: Request, token: string, now: number): Promise<SessionCheck>;
  /** Ends the session of `req`'s cookie, if any: the Set-Cookie that clears the cookie. */
  end(req: Request): Promise<string>;
}

const encoder = new TextEncoder();
const VALUE = /^([\w-]{43})\.([\w-]{43})$/;

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** An HMAC key of its own (HKDF, info `admin-session:`), never valid for the visitor cookie. */
function deriveKey(secret: string): Promise<CryptoKey> {
  return deriveHmacKey(secret, "admin-session:", ["sign", "verify"]);
}

function cookieName(secure: boolean): string {
  return secure ? SECURE_ADMIN_COOKIE : ADMIN_COOKIE;
}

function attributes(secure: boolean, maxAge: number): string {
  return `Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

/** The value of this deployment's admin cookie in `req`, if any. */
function cookieValue(req: Request, secure: boolean): string | null {
  const name = cookieName(secure);
  const value = (req.headers.get("cookie") ?? "").split(";").map((c) => c.trim())
    .find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1);
  return value === undefined ? null : value;
}

/**
 * Admin sessions signed with `secret` (the deployment's SESSION_SECRET) and kept in `store`;
 * `secure` is the deployment's cookie policy.
 */
export async function createAdminSessions(
  secret: string,
  store: AdminSessionStore,
  { secure }: { secure: boolean },
): Promise<AdminSessions> {
  if (secret.length < 32) throw new Error("SESSION_SECRET must be at least 32 characters long.");
  const key = await deriveKey(secret);
  const sign = async (text: string) =>
    b64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text))));

  /** The session id of a cookie whose signature is this server's, else null. */
  async function verifiedId(value: string): Promise<string | null> {
    const match = VALUE.exec(value);
    if (!match) return null;
    const signature = Uint8Array.from(
      atob(match[2].replaceAll("-", "+").replaceAll("_", "/")),
      (c) => c.charCodeAt(0),
    );
    // `verify` compares in constant time.
    const ok = await crypto.subtle.verify("HMAC", key, signature, encoder.encode(`id:${match[1]}`));
    return ok ? match[1] : null;
  }

  return {
    async start(token, now) {
      const id = b64url(crypto.getRandomValues(new Uint8Array(32)));
      const expiresAt = now + ADMIN_SESSION_SECONDS * 1000;
      await store.save(id, { expiresAt, tokenTag: await sign(`token:${token}`) }, now);
      const value = `${id}.${await sign(`id:${id}`)}`;
      return `${cookieName(secure)}=${value}; ${attributes(secure, ADMIN_SESSION_SECONDS)}`;
    },
    async check(req, token, now) {
      const value = cookieValue(req, secure);
      if (value === null) return "none";
      const id = await verifiedId(value);
      const record = id ? await store.get(id, now) : null;
      if (!record) return "refused";
      return record.tokenTag === await sign(`token:${token}`) ? "live" : "refused";
    },
    async end(req) {
      const value = cookieValue(req, secure);
      const id = value && await verifiedId(value);
      if (id) await store.delete(id);
      return `${cookieName(secure)}=; ${attributes(secure, 0)}`;
    },
  };
}

/** Whether `error` is a 401 of the admin guard. */
export function isUnauthorized(error: unknown): error is HttpError {
  return error instanceof HttpError && error.status === 401;
}
