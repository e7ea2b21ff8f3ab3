/**
 * Cross-origin access to /api/*: a request whose Origin is another site is answered
 * only when that origin is allowed (config `allowedOrigins`, plus the site's public
 * origin); any other origin gets 403 `origin_not_allowed`, preflights included.
 * Allowed origins get CORS headers on every answer, errors too, so a page can read them.
 */
import { editHeaders } from "./response_headers.ts";
import { errorResponse, HttpError, httpErrorResponse } from "./errors.ts";
import { originAllowed } from "./origin.ts";

/** Methods and request headers a preflight allows (the widget's token travels in Authorization). */
const ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
const ALLOW_HEADERS = "content-type, authorization, mcp-protocol-version, mcp-session-id";

/** Whether `url` is an API path (JSON answers, CORS applies): /api/* and the MCP server, /mcp. */
export function isApiPath(url: URL): boolean {
  return url.pathname === "/api" || url.pathname.startsWith("/api/") || url.pathname === "/mcp";
}

/**
 * Runs `next` under the API's cross-origin policy (see the module doc). Same-origin
 * requests and requests without Origin pass untouched; the rest of the origin rules
 * (unsafe methods without Origin) stay with `requireAllowedOrigin`.
 */
export async function withApiCors(
  req: Request,
  url: URL,
  allowed: readonly string[],
  next: () => Promise<Response>,
): Promise<Response> {
  const origin = req.headers.get("origin");
  if (!isApiPath(url) || origin === null || origin === url.origin) return await next();
  if (!allowed.includes(origin)) return refusal(origin);
  const cors: [string, string][] = [
    ["Access-Control-Allow-Origin", origin],
    ["Access-Control-Allow-Credentials", "true"],
    ["Access-Control-Expose-Headers", "x-vercel-ai-ui-message-stream, Retry-After"],
  ];
  if (req.method === "OPTIONS") {
    return withHeaders(new Response(null, { status: 204 }), [
      ...cors,
      ["Access-Control-Allow-Methods", ALLOW_METHODS],
      ["Access-Control-Allow-Headers", ALLOW_HEADERS],
      ["Access-Control-Max-Age", "600"],
    ]);
  }
  let res: Response;
  try {
    res = await next();
  } catch (error) {
    // Errors thrown past the routes would leave without CORS headers, unreadable by the page.
    if (!(error instanceof HttpError)) throw error;
    res = httpErrorResponse(error);
  }
  return withHeaders(res, cors);
}

/**
 * 403 `origin_not_allowed` for a foreign origin. Readable by any page
 * (`Access-Control-Allow-Origin: *`, no credentials), so the widget loader on a page that
 * is not allowed can show why instead of failing blind; it reveals nothing but the refusal.
 */
function refusal(origin: string): Response {
  return errorResponse(
    "origin_not_allowed",
    `Origin "${origin}" may not call this API. Add it to allowedOrigins in fresh.config.ts.`,
    { "Access-Control-Allow-Origin": "*", Vary: "Origin" },
  );
}

/** Sets `headers` (Vary: Origin added once), copying a response whose headers are immutable. */
function withHeaders(res: Response, headers: [string, string][]): Response {
  return editHeaders(res, (h) => {
    for (const [name, value] of headers) h.set(name, value);
    const vary = h.get("vary") ?? "";
    if (!/(^|,)\s*origin\s*(,|$)/i.test(vary)) h.set("Vary", vary ? `${vary}, Origin` : "Origin");
  });
}

/**
 * A route's own OPTIONS answer. Foreign origins never reach it ({@linkcode withApiCors}
 * answers or refuses their preflights), so it sees same-origin requests and requests
 * without Origin: 204 with `methods`, or 403 for a cross-site request without Origin.
 */
export function routePreflight(req: Request, url: URL, methods: string): Response {
  if (!originAllowed(req, url, [])) {
    return errorResponse(
      "origin_not_allowed",
      `Origin "${req.headers.get("origin")}" may not call this API.`,
    );
  }
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Methods": methods,
      "Access-Control-Allow-Headers": "content-type",
      "Access-Control-Max-Age": "600",
    },
  });
}
