/**
 * Response bodies that tell how they ended, so the request log need not wrap them in one
 * more stream layer (a read, a promise and an enqueue for every chunk of a streamed
 * answer) just to learn it. A body that does not announce its end is wrapped as before.
 */

/** How a response body ended, as the request log writes it. */
export type BodyEnd = "complete" | "cancelled" | "error";

const listeners = new WeakMap<ReadableStream<Uint8Array>, ((end: BodyEnd) => void)[]>();

/** Marks `body` as one whose producer calls {@linkcode bodyEnded} when it ends. */
export function announcesEnd(body: ReadableStream<Uint8Array>): void {
  listeners.set(body, []);
}

/** Tells whoever listens to `body` how it ended; only the first call counts. */
export function bodyEnded(body: ReadableStream<Uint8Array>, end: BodyEnd): void {
  const fns = listeners.get(body);
  if (!fns) return;
  listeners.delete(body);
  for (const fn of fns) fn(end);
}

/**
 * Calls `fn` once when `body` ends, if `body` announces its end; returns false (and never
 * calls `fn`) when it does not, or when it already ended.
 */
export function onBodyEnd(body: ReadableStream<Uint8Array>, fn: (end: BodyEnd) => void): boolean {
  const fns = listeners.get(body);
  if (!fns) return false;
  fns.push(fn);
  return true;
}
