/**
 * What makes a visitor's approval of a tool call trustworthy on the server:
 * a signature binding the exact call (chat, call id, tool, arguments, expiry)
 * to this server's secret, approval ids nobody can guess, and a single-use
 * claim in Deno KV so that a replayed approval never runs twice.
 *
 * Server-only: islands and lib/client may import its types only.
 */
import type { AgentOperation } from "@/lib/agents/types.ts";
import type {
  ApprovalDescriptor as WireApprovalDescriptor,
  RunIn,
} from "@/lib/protocol/approval.ts";
import { deriveHmacKey } from "@/lib/crypto/hmac_key.ts";

/**
 * What an approval request carries to the visitor's card, and back to the server: the wire
 * descriptor, which on the server always says where the request runs.
 */
export type ApprovalDescriptor = WireApprovalDescriptor<AgentOperation> & { runIn: RunIn };

/** The call an approval is for: everything its signature binds. */
export interface ApprovalSubject {
  chatId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Epoch ms after which the approval is refused. */
  expiresAt: number;
}

/** Signs approval subjects and checks signatures, with a key of its own derived from the secret. */
export interface ApprovalSigner {
  /** The base64url signature of `subject`. */
  sign(subject: ApprovalSubject): Promise<string>;
  /** Whether `signature` is this server's for exactly `subject` (constant-time). */
  verify(subject: ApprovalSubject, signature: string): Promise<boolean>;
}

/** Default lifetime of an approval: 30 minutes after it is issued. */
export const APPROVAL_TTL_MS = 30 * 60 * 1000;

const encoder = new TextEncoder();
/** The derivation domain: a signature here is never valid as a visitor cookie or anything else. */
const DOMAIN = "tool-approval:";

/**
 * A signer whose HMAC-SHA256 key is derived (HKDF, info `tool-approval:`) from `secret`,
 * the deployment's SESSION_SECRET.
 */
export function createApprovalSigner(secret: string): ApprovalSigner {
  if (!secret) throw new Error("The approval secret is empty: set SESSION_SECRET.");
  const key = deriveKey(secret);
  async function mac(subject: ApprovalSubject): Promise<Uint8Array> {
    const data = encoder.encode(canonicalJson(subjectTuple(subject)));
    return new Uint8Array(await crypto.subtle.sign("HMAC", await key, data));
  }
  return {
    async sign(subject) {
      return b64url(await mac(subject));
    },
    async verify(subject, signature) {
      if (typeof signature !== "string") return false;
      const given = fromB64url(signature);
      if (!given) return false;
      return constantTimeEqual(await mac(subject), given);
    },
  };
}

function deriveKey(secret: string): Promise<CryptoKey> {
  return deriveHmacKey(secret, DOMAIN);
}

function subjectTuple(s: ApprovalSubject): unknown[] {
  return [s.chatId, s.toolCallId, s.toolName, s.input, s.expiresAt];
}

/**
 * JSON with object keys sorted at every depth, so the same value always gives the same
 * text whatever order its keys were built in. Fields JSON drops (undefined, functions) are dropped.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  }) ?? "null";
}

/** A fresh approval id: `apr_` and 20 random base64url characters (120 bits). */
export function newApprovalId(): string {
  return `apr_${b64url(crypto.getRandomValues(new Uint8Array(15)))}`;
}

/** The KV key that marks an approval as used. */
export function approvalUsedKey(approvalId: string): Deno.KvKey {
  return ["approval_used", approvalId];
}

/**
 * Marks `approvalId` as used, atomically: true for the first claim, false when it was
 * claimed before (a replay). The mark expires after `expireInMs` (at least the approval's
 * remaining lifetime, so that it outlives every valid replay).
 */
export async function claimApproval(
  kv: Deno.Kv,
  approvalId: string,
  expireInMs: number,
): Promise<boolean> {
  const key = approvalUsedKey(approvalId);
  const result = await kv.atomic()
    .check({ key, versionstamp: null })
    .set(key, Date.now(), { expireIn: Math.max(1, Math.ceil(expireInMs)) })
    .commit();
  return result.ok;
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

function b64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromB64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
