/**
 * HMAC keys derived from one secret (SESSION_SECRET) with HKDF, one per purpose: the label
 * keeps a signature made for one purpose (an approval, a sealed header, an admin session)
 * from being valid for another.
 */

const encoder = new TextEncoder();

/**
 * The HMAC-SHA-256 key for `label` derived from `secret`.
 *
 * @example
 * ```ts
 * const key = await deriveHmacKey(secret, "admin-session:", ["sign", "verify"]);
 * ```
 */
export async function deriveHmacKey(
  secret: string,
  label: string,
  usages: KeyUsage[] = ["sign"],
): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveKey",
  ]);
  return await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(label) },
    base,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    usages,
  );
}
