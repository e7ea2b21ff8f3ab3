/**
 * The check of admin endpoints: exactly `Authorization: Bearer <ADMIN_TOKEN>`,
 * compared in constant time so response timing does not reveal the token.
 */
import { HttpError } from "./errors.ts";

const encoder = new TextEncoder();

// A per-process key: both sides are HMACed with it, so the comparison runs over two
// equal-length digests whatever the lengths of the token and of what was sent. Made on first
// use from random bytes: `generateKey` for HMAC took 30–130 ms here, on every cold start.
let keyPromise: Promise<CryptoKey> | undefined;

function hmacKey(): Promise<CryptoKey> {
  return keyPromise ??= crypto.subtle.importKey(
    "raw",
    crypto.getRandomValues(new Uint8Array(32)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(), encoder.encode(text)));
}

/** Whether `a` and `b` are equal, in time that depends only on their HMAC length. */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

/**
 * Throws 401 `unauthorized` unless `req` carries `Authorization: Bearer <token>`
 * (the scheme case-insensitive, one space, nothing around the token). A null
 * token (ADMIN_TOKEN unset) disables the endpoint.
 */
export async function requireAdmin(req: Request, token: string | null): Promise<void> {
  if (!token) {
    throw new HttpError("unauthorized", "Set ADMIN_TOKEN to enable this endpoint.");
  }
  const match = /^Bearer ([^\s].*)$/i.exec(req.headers.get("authorization") ?? "");
  const given = match?.[1] ?? "";
  // Compared even when the header is malformed, so that case takes the same time.
  const equal = await constantTimeEqual(given, token);
  if (!match || !equal) {
    throw new HttpError(
      "unauthorized",
      "A valid token is required: send `Authorization: Bearer <ADMIN_TOKEN>`.",
      { "WWW-Authenticate": "Bearer" },
    );
  }
}
