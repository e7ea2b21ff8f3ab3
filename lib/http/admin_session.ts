/**
 * The admin's browser session: after the login form (/admin/login) the owner carries a
 * signed cookie instead of the `Authorization` header. The cookie holds its own expiry,
 * signed with HMAC-SHA256 under a key derived from ADMIN_TOKEN, so changing the token
 * signs every admin out. `__Host-admin` (Secure, Path=/, no Domain) wherever cookies are
 * Secure; HttpOnly and SameSite=Strict always.
 */
import { constantTimeEqual, requireAdmin } from "./admin.ts";
import { HttpError } from "./errors.ts";

/** The cookie's name over plain HTTP (local development). */
export const ADMIN_COOKIE = "admin";
/** The cookie's name wherever cookies are Secure. */
export const SECURE_ADMIN_COOKIE = "__Host-admin";
/** How long a login lasts. */
export const ADMIN_SESSION_SECONDS = 12 * 60 * 60;

const encoder = new TextEncoder();

async function mac(token: string, expires: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(`admin-session:${token}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${expires}`)));
  return btoa(String.fromCharCode(...sig)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

function cookieName(secure: boolean): string {
  return secure ? SECURE_ADMIN_COOKIE : ADMIN_COOKIE;
}

function attributes(secure: boolean, maxAge: number): string {
  return `Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

/** The Set-Cookie of a new session, valid `ADMIN_SESSION_SECONDS` from `now`. */
export async function adminSessionCookie(
  token: string,
  { secure, now = Date.now() }: { secure: boolean; now?: number },
): Promise<string> {
  const expires = now + ADMIN_SESSION_SECONDS * 1000;
  const value = `${expires}.${await mac(token, expires)}`;
  return `${cookieName(secure)}=${value}; ${attributes(secure, ADMIN_SESSION_SECONDS)}`;
}

/** The Set-Cookie that ends the session. */
export function clearAdminSessionCookie(secure: boolean): string {
  return `${cookieName(secure)}=; ${attributes(secure, 0)}`;
}

/** Whether `req` carries a valid, unexpired session cookie for `token`. */
export async function hasAdminSession(
  req: Request,
  token: string,
  { secure, now = Date.now() }: { secure: boolean; now?: number },
): Promise<boolean> {
  const name = cookieName(secure);
  const value = (req.headers.get("cookie") ?? "").split(";").map((c) => c.trim())
    .find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1);
  const match = value && /^(\d{13,15})\.([\w-]{43})$/.exec(value);
  if (!match) return false;
  const expires = Number(match[1]);
  if (!(expires > now && expires <= now + ADMIN_SESSION_SECONDS * 1000)) return false;
  return await constantTimeEqual(match[2], await mac(token, expires));
}

/**
 * Throws 401 `unauthorized` unless `req` carries the admin session cookie or
 * `Authorization: Bearer <ADMIN_TOKEN>`; a null token disables admin pages.
 */
export async function requireAdminPage(
  req: Request,
  token: string | null,
  secure: boolean,
): Promise<void> {
  if (token && !req.headers.has("authorization") && await hasAdminSession(req, token, { secure })) {
    return;
  }
  await requireAdmin(req, token);
}

/** Whether `error` is the 401 of {@linkcode requireAdminPage}. */
export function isUnauthorized(error: unknown): error is HttpError {
  return error instanceof HttpError && error.status === 401;
}
