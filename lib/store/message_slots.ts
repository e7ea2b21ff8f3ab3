/**
 * How one saved message is laid out in KV: its UTF-8 JSON split into 60 KiB
 * parts under its slot, or, when it is too large to share a commit with the
 * rest of a write, in a blob written beforehand by separate commits and named
 * by a reference in the slot.
 *
 *   ["msg", chatId, seq, part]   → Uint8Array part, or (part 0 only) a BlobRef
 *   ["blob", chatId, blobId, i]  → Uint8Array part of a large message
 */
import type { UIMessage } from "ai";
import { commitWithRetry, KV_LIMITS } from "./kv.ts";

/** The slot value that stands for a message stored as a blob. */
export interface BlobRef {
  blob: string;
  parts: number;
  bytes: number;
}

/** A message up to this size is stored inline in its slot (two parts). */
export const INLINE_MAX_BYTES = 2 * KV_LIMITS.chunkBytes;
/** Blob parts written per commit (600 KiB, under the 800 KiB commit limit). */
const BLOB_PARTS_PER_COMMIT = 10;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Splits a message into KV-sized parts. */
export function encodeMessage(message: UIMessage): Uint8Array[] {
  const bytes = encoder.encode(JSON.stringify(message));
  const parts: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += KV_LIMITS.chunkBytes) {
    parts.push(bytes.subarray(i, i + KV_LIMITS.chunkBytes));
  }
  if (parts.length === 0) parts.push(new Uint8Array());
  return parts;
}

/** Joins parts back into the message. */
export function decodeParts(parts: Uint8Array[]): UIMessage {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return JSON.parse(decoder.decode(out));
}

/** Whether a slot's part 0 is a blob reference rather than inline bytes. */
export function isBlobRef(value: unknown): value is BlobRef {
  return typeof value === "object" && value !== null && !(value instanceof Uint8Array) &&
    typeof (value as BlobRef).blob === "string";
}

/** What a slot holds once written: inline parts, or one reference. */
export type SlotValues = Uint8Array[] | [BlobRef];

/** Bytes a slot adds to a commit. */
export function slotBytes(values: SlotValues): number {
  return values.reduce((n: number, v) => n + (v instanceof Uint8Array ? v.length : 200), 0);
}

/** Writes `parts` as a blob of `chatId` in commits of their own; returns its reference. */
export async function writeBlob(
  kv: Deno.Kv,
  chatId: string,
  parts: Uint8Array[],
  expireIn: number,
): Promise<BlobRef> {
  const blob = crypto.randomUUID();
  for (let i = 0; i < parts.length; i += BLOB_PARTS_PER_COMMIT) {
    const op = kv.atomic();
    parts.slice(i, i + BLOB_PARTS_PER_COMMIT).forEach((part, j) =>
      op.set(["blob", chatId, blob, i + j], part, { expireIn })
    );
    await commitWithRetry(op);
  }
  return { blob, parts: parts.length, bytes: parts.reduce((n, p) => n + p.length, 0) };
}

/** Reads a blob's parts, ten keys a read, in parallel. */
export async function readBlob(
  kv: Deno.Kv,
  chatId: string,
  ref: BlobRef,
  consistency: Deno.KvConsistencyLevel = "strong",
): Promise<Uint8Array[]> {
  const keys = Array.from({ length: ref.parts }, (_, i) => ["blob", chatId, ref.blob, i]);
  const entries = await getManyBatched<Uint8Array>(kv, keys, consistency);
  const missing = entries.findIndex((e) => !(e.value instanceof Uint8Array));
  if (missing >= 0) {
    throw new Error(
      `Part ${missing} of blob "${ref.blob}" of chat "${chatId}" is missing; the chat is damaged.`,
    );
  }
  return entries.map((e) => e.value as Uint8Array);
}

/** Deletes a blob (best effort: it expires with its chat anyway). */
export async function deleteBlob(kv: Deno.Kv, chatId: string, blob: string): Promise<void> {
  await deletePrefix(kv, ["blob", chatId, blob]);
}

/** Deletes every key under `prefix`, 500 a commit. */
export async function deletePrefix(kv: Deno.Kv, prefix: Deno.KvKey): Promise<void> {
  const keys: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix })) keys.push(entry.key);
  await deleteKeys(kv, keys);
}

/** Deletes `keys`, 500 a commit. */
export async function deleteKeys(kv: Deno.Kv, keys: Deno.KvKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 500) {
    const op = kv.atomic();
    for (const key of keys.slice(i, i + 500)) op.delete(key);
    await commitWithRetry(op);
  }
}

/** `kv.getMany` for any number of keys: KV takes at most ten a call; the calls run in parallel. */
export async function getManyBatched<T>(
  kv: Deno.Kv,
  keys: Deno.KvKey[],
  consistency: Deno.KvConsistencyLevel = "strong",
): Promise<Deno.KvEntryMaybe<T>[]> {
  const batches: Promise<Deno.KvEntryMaybe<T>[]>[] = [];
  for (let i = 0; i < keys.length; i += KV_LIMITS.maxGetMany) {
    batches.push(kv.getMany<T[]>(keys.slice(i, i + KV_LIMITS.maxGetMany), { consistency }));
  }
  return (await Promise.all(batches)).flat();
}
