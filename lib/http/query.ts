/**
 * Query parameters checked, not guessed: a value that is present but malformed is
 * a 400 `invalid_request` naming the parameter, never a silent default or a 500.
 */
import { HttpError } from "./errors.ts";

/**
 * The integer parameter `name` of `url` in [min, max], or `fallback` when absent
 * or empty; 400 for anything else.
 */
export function intParam(
  url: URL,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return fallback;
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) {
    throw new HttpError(
      "invalid_request",
      `Invalid "${name}": "${raw.slice(0, 40)}" is not an integer from ${min} to ${max}.`,
    );
  }
  return n;
}

// Paging cursors are base64url, padded or not; what they encode is the store's to check.
const CURSOR = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * The paging cursor `name` of `url`, or undefined when absent or empty; 400 when it
 * is not base64url. A well-formed but foreign cursor passes here: the store refuses
 * it with `InvalidCursorError`, which the route turns into a 400.
 */
export function cursorParam(url: URL, name = "cursor"): string | undefined {
  const raw = url.searchParams.get(name);
  if (!raw) return undefined;
  if (raw.length > 2048 || !CURSOR.test(raw)) {
    throw new HttpError(
      "invalid_request",
      `Invalid "${name}": send back the cursor of the previous page unchanged.`,
    );
  }
  return raw;
}
