/**
 * Which origins may call the API: same origin always; other origins only when
 * listed in `allowedOrigins` (the embeddable widget on a static site). The CORS
 * answers themselves are lib/http/api_cors.ts's.
 */
import { HttpError } from "./errors.ts";

/**
 * Whether a request's Origin may call the API. Without Origin it is a same-origin
 * navigation or a tool, unless the browser says it comes from another site
 * (`Sec-Fetch-Site: cross-site`). `Origin: null` (sandboxed frames) is foreign.
 */
export function originAllowed(req: Request, url: URL, allowed: string[]): boolean {
  const origin = req.headers.get("origin");
  if (!origin) return req.headers.get("sec-fetch-site")?.trim().toLowerCase() !== "cross-site";
  if (origin === url.origin) return true;
  return allowed.includes(origin);
}

/** The site's public origin from `site.url` (behind a proxy `req.url` may differ), as a list. */
export function siteOrigins(config: { site: { url: string | null } }): string[] {
  if (!config.site.url) return [];
  try {
    return [new URL(config.site.url).origin];
  } catch {
    return [];
  }
}

/** Methods that change data, so a foreign page must not be able to send them with our cookie. */
export const UNSAFE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Throws 403 `origin_not_allowed` when a request that changes data comes from a
 * foreign origin (see `originAllowed`). `allowed` holds the other accepted origins.
 */
export function requireAllowedOrigin(req: Request, url: URL, allowed: string[]): void {
  if (originAllowed(req, url, allowed)) return;
  const origin = req.headers.get("origin");
  throw new HttpError(
    "origin_not_allowed",
    origin
      ? `Origin "${origin}" may not call this API.`
      : "A cross-site request without Origin may not change data here.",
  );
}
