/**
 * What the store throws, in its own words: callers above it (the chat layer, lib/http) decide
 * what each means to a visitor. lib/http/app.ts answers `StoreUnavailableError` with 503, as every `ServiceUnavailableError`; the
 * turn and the chat list map the others to 404 and 400 where they catch them.
 */
import { ServiceUnavailableError } from "@/lib/outage.ts";
import { isTransientKvError } from "./kv.ts";

/** Raised when the store cannot be reached; routes answer 503 (it is a `ServiceUnavailableError`). */
export class StoreUnavailableError extends ServiceUnavailableError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}

/** Raised when a commit keeps losing races (should not happen in practice). */
export class StoreConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreConflictError";
  }
}

/** Raised when a chat may not be written by this visitor: it belongs to another visitor, it was deleted, or the visitor erased their data. Routes answer 404, exactly like a missing chat. */
export class ChatNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChatNotFoundError";
  }
}

/** Raised when an edit or regenerate names a message that is no longer in the chat. Routes answer 400. */
export class ReplaceTargetMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplaceTargetMissingError";
  }
}

/** Raised when a list cursor is not one this visitor's listing gave. Routes answer 400. */
export class InvalidCursorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidCursorError";
  }
}

const TYPED = [
  StoreConflictError,
  StoreUnavailableError,
  ChatNotFoundError,
  ReplaceTargetMissingError,
  InvalidCursorError,
];

/**
 * Runs one store operation: the store's own errors and KV's size-limit errors (a caller's
 * mistake, not an outage) pass through; any other failure becomes a `StoreUnavailableError`
 * that names `what` was being done.
 */
export async function asStoreErrors<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (TYPED.some((type) => error instanceof type)) throw error;
    if (
      error instanceof TypeError && /too large|too many|limit/i.test(error.message) &&
      !isTransientKvError(error)
    ) throw error;
    throw new StoreUnavailableError(`Deno KV failed while trying to ${what}.`, { cause: error });
  }
}
