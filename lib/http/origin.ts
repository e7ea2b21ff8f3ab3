/**
 * Cross-origin policy of the API: same origin always; other origins only when
 * listed in `allowedOrigins` (the embeddable widget on a static site).
 */
import { errorResponse } from "./errors.ts";

/** Whether a request's Origin may call the API; requests without Origin are same-origin navigations or tools. */
export function originAllowed(req: Request, url: URL, allowed: string[]): boolean {
  const origin = req.headers.get("origin");
  if (!origin || origin === url.origin) return true;
  return allowed.includes(origin);
}

/** CORS headers for an allowed foreign origin (none for same-origin). */
export function corsHeaders(req: Request, url: URL, allowed: string[]): Record<string, string> {
  const origin = req.headers.get("origin");
  if (!origin || origin === url.origin || !allowed.includes(origin)) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Expose-Headers": "x-vercel-ai-ui-message-stream, Retry-After",
    Vary: "Origin",
  };
}

/** Answers a CORS preflight: 204 with the allowed methods, or 403 JSON. */
export function preflight(req: Request, url: URL, allowed: string[], methods: string): Response {
  if (!originAllowed(req, url, allowed)) {
    return errorResponse(
      "origin_not_allowed",
      `Origin "${req.headers.get("origin")}" may not call this API.`,
    );
  }
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(req, url, allowed),
      "Access-Control-Allow-Methods": methods,
      "Access-Control-Allow-Headers": "content-type",
      "Access-Control-Max-Age": "600",
    },
  });
}
