/**
 * Deadlines of one model call: how long the provider may take to send the first
 * byte of its response body, and the longest silence between two body chunks.
 * The routed fetch (gateway_fetch.ts) enforces them; this module holds the
 * defaults and the error a caller recognises them by.
 */
import type { ModelDeadlines } from "./types.ts";

/** Defaults when the configuration gives none (`fresh.config.ts` `modelDeadlines`). */
export const DEFAULT_MODEL_DEADLINES: Readonly<ModelDeadlines> = Object.freeze({
  firstByteMs: 20_000,
  idleMs: 30_000,
});

/** Which deadline expired: before the first body byte, or between two body chunks. */
export type ModelDeadlineKind = "first-byte" | "idle";

/**
 * A model call took longer than its deadline; the request was aborted. The provider
 * adapters pass it through unchanged (it is no abort and no network error), so it
 * reaches the caller as is or as the `cause` of an SDK error: use
 * {@linkcode findModelDeadlineError} to recognise it.
 */
export class ModelDeadlineError extends Error {
  /** Error code for logs and JSON bodies. */
  readonly code = "model_deadline";
  readonly kind: ModelDeadlineKind;
  /** Catalog model id, e.g. "cerebras/gpt-oss-120b". */
  readonly modelId: string;
  /** The deadline that expired, in milliseconds. */
  readonly deadlineMs: number;

  constructor(kind: ModelDeadlineKind, modelId: string, deadlineMs: number) {
    const field = kind === "first-byte" ? "firstByteMs" : "idleMs";
    super(
      kind === "first-byte"
        ? `Model "${modelId}" sent no response within ${deadlineMs} ms; raise modelDeadlines.${field} in fresh.config.ts if it is just slow.`
        : `Model "${modelId}" stopped sending for ${deadlineMs} ms in the middle of its answer; raise modelDeadlines.${field} in fresh.config.ts if it is just slow.`,
    );
    this.name = "ModelDeadlineError";
    this.kind = kind;
    this.modelId = modelId;
    this.deadlineMs = deadlineMs;
  }
}

/** The deadline error in `error` or its `cause` chain, else undefined. */
export function findModelDeadlineError(error: unknown): ModelDeadlineError | undefined {
  const seen = new Set<unknown>();
  let current = error;
  while (current instanceof Error && !seen.has(current)) {
    if (current instanceof ModelDeadlineError) return current;
    seen.add(current);
    current = current.cause;
  }
  return undefined;
}

/**
 * Checks deadlines from the configuration and fills the missing ones with the defaults;
 * a bad value throws an error naming the field (after `prefix`, e.g. "fresh.config.ts: ").
 *
 * @example
 * ```ts
 * resolveModelDeadlines({ idleMs: 60_000 }); // { firstByteMs: 20_000, idleMs: 60_000 }
 * ```
 */
export function resolveModelDeadlines(
  deadlines: Partial<ModelDeadlines> | undefined,
  prefix = "",
): ModelDeadlines {
  const resolved = { ...DEFAULT_MODEL_DEADLINES, ...deadlines };
  for (const field of ["firstByteMs", "idleMs"] as const) {
    const value = resolved[field];
    // setTimeout caps at 2^31 - 1 ms (about 24.8 days); past that it fires at once.
    if (!Number.isInteger(value) || value < 1 || value > 2_147_483_647) {
      throw new Error(
        `${prefix}"modelDeadlines.${field}" must be a whole number of milliseconds from 1 to 2147483647, got ${
          typeof value === "string" ? JSON.stringify(value) : String(value)
        }.`,
      );
    }
  }
  return resolved;
}
