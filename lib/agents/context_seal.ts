/**
 * The seal that makes an `X-Assistant-Context` header trustworthy to this app's own
 * APIs (the built-in contact agent's `POST /api/contact`): an HMAC over the exact
 * header value and an expiry, with a key derived from SESSION_SECRET. The server adds
 * it when it sends a "self" agent's call; anyone else can send the header, but not
 * its seal, so a visitor cannot attach a message to a chat of their choosing.
 *
 * Server-only (Web Crypto and the session secret).
 */

import { deriveHmacKey } from "@/lib/crypto/hmac_key.ts";

/** The header that carries the seal: `<expiresAt>.<base64url HMAC>`. */
export const CONTEXT_SEAL_HEADER = "X-Assistant-Context-Seal";

/** How long a seal is valid: a call is sent the moment it is sealed. */
export const CONTEXT_SEAL_TTL_MS = 5 * 60 * 1000;

/** Seals context header values and checks seals. */
export interface ContextSealer {
  /** The seal of `header` (the exact header value), valid `CONTEXT_SEAL_TTL_MS` after `now`. */
  seal(header: string, now: number): Promise<string>;
  /** Whether `seal` is this server's, unexpired at `now`, for exactly `header`. */
  verify(header: string, seal: string, now: number): Promise<boolean>;
}

const encoder = new TextEncoder();
/** The derivation domain: a context seal is never valid as a cookie or an approval. */
const DOMAIN = "assistant-context:";

/** A sealer whose HMAC-SHA256 key is derived (HKDF, info `assistant-context:`) from `secret`. */
export function createContextSealer(secret: string): ContextSealer {
  if (!secret) throw new Error("The context seal secret is empty: set SESSION_SECRET.");
  const key = deriveKey(secret);
  const mac = async (header: string, expiresAt: number) =>
    new Uint8Array(
      await crypto.subtle.sign("HMAC", await key, encoder.encode(`${expiresAt}.${header}`)),
    );
  return {
    async seal(header, now) {
      const expiresAt = now + CONTEXT_SEAL_TTL_MS;
      return `${expiresAt}.${b64url(await mac(header, expiresAt))}`;
    },
    async verify(header, seal, now) {
      const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(seal);
      if (!match) return false;
      const expiresAt = Number(match[1]);
      if (!(expiresAt > now)) return false;
      const expected = b64url(await mac(header, expiresAt));
      return constantTimeEqual(expected, match[2]);
    },
  };
}

function deriveKey(secret: string): Promise<CryptoKey> {
  return deriveHmacKey(secret, DOMAIN);
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function b64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
