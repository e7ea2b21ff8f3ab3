/**
 * Visitor identity: a random id in a signed, HttpOnly, SameSite=Lax cookie
 * (HMAC-SHA256). No account, no personal data: the id only ties a browser to
 * its own chats.
 */

/** Name of the visitor cookie. */
export const VISITOR_COOKIE = "visitor";
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
}

/** Builds a signer over `secret` (at least 32 characters). */
export async function createVisitorSigner(secret: string): Promise<VisitorSigner> {
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

/** Reads one cookie from a request. */
export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      return decodeURIComponent(part.slice(eq + 1).trim());
    }
  }
  return null;
}

/** The visitor of a request: an existing verified id, or a new one with the cookie to set. */
export async function resolveVisitor(
  req: Request,
  signer: VisitorSigner,
): Promise<{ id: string; setCookie: string | null }> {
  const raw = readCookie(req, VISITOR_COOKIE);
  const id = raw ? await signer.verify(raw) : null;
  if (id) return { id, setCookie: null };
  const fresh = b64url(crypto.getRandomValues(new Uint8Array(18)));
  return {
    id: fresh,
    setCookie: visitorCookie(await signer.sign(fresh), new URL(req.url).protocol === "https:"),
  };
}

/** The Set-Cookie value for a signed visitor id. */
export function visitorCookie(signed: string, secure: boolean): string {
  return `${VISITOR_COOKIE}=${signed}; Path=/; Max-Age=${ONE_YEAR}; HttpOnly; SameSite=Lax${
    secure ? "; Secure" : ""
  }`;
}

/** A Set-Cookie value that removes the visitor cookie. */
export function clearVisitorCookie(secure: boolean): string {
  return `${VISITOR_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * The cookie secret: SESSION_SECRET, required on Deno Deploy; locally one is
 * generated once and kept in KV so visitors survive restarts.
 */
export async function loadSessionSecret(
  kv: Deno.Kv,
  env: Record<string, string | undefined>,
): Promise<string> {
  const configured = env.SESSION_SECRET;
  if (configured) return configured;
  if (env.DENO_DEPLOYMENT_ID || env.NODE_ENV === "production") {
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
  const raw = readCookie(req, VISITOR_COOKIE);
  return raw ? await signer.verify(raw) : null;
}
