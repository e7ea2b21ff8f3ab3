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

// A Deno KV cursor is the standard base64 alphabet made URL-safe, padded to whole quads.
const KV_CURSOR = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}==|[A-Za-z0-9_-]{3}=)?$/;

/**
 * The KV paging cursor `name` of `url`, or undefined when absent or empty; 400
 * when it is not the base64url of a key. A well-formed but foreign cursor passes
 * here: the caller turns KV's refusal into a 400 with `isInvalidCursorError`.
 */
export function cursorParam(url: URL, name = "cursor"): string | undefined {
  const raw = url.searchParams.get(name);
  if (!raw) return undefined;
  if (raw.length > 2048 || !KV_CURSOR.test(raw)) {
    throw new HttpError(
      "invalid_request",
      `Invalid "${name}": send back the cursor of the previous page unchanged.`,
    );
  }
  return raw;
}

/** Whether `error` (or its cause, as wrapped by the store) is KV refusing a cursor. */
export function isInvalidCursorError(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof TypeError && /invalid cursor/i.test(e.message)) return true;
  }
  return false;
}
