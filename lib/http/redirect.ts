/**
 * Where a "go back" redirect may lead: only a path of our own origin. A Location
 * of `//host/x` or `/\host/x` is read by browsers as another site, so those and
 * anything unparsable fall back to `/`.
 */

/**
 * The path and query of `referer` when it is a page of `url`'s origin (or of one
 * of `sameOrigins`, e.g. the public site URL behind a proxy); otherwise `/`.
 */
export function safeBackPath(
  referer: string | null,
  url: URL,
  sameOrigins: readonly string[] = [],
): string {
  if (!referer) return "/";
  let ref: URL;
  try {
    ref = new URL(referer);
  } catch {
    return "/";
  }
  if (ref.origin !== url.origin && !sameOrigins.includes(ref.origin)) return "/";
  const path = ref.pathname + ref.search;
  // One leading slash, then not a second slash or a backslash; no control characters
  // (the URL parser already encodes them: this holds should that ever change).
  // deno-lint-ignore no-control-regex
  if (!/^\/(?![/\\])/.test(path) || /[\u0000-\u001f\u007f\\]/.test(path)) return "/";
  return path;
}
