/**
 * The one place that builds JSON error responses. Every API failure the client
 * can see goes through `errorResponse`, so codes and statuses stay consistent
 * with the HTTP contract in DESIGN.md.
 */

/** Error codes of the HTTP contract and their statuses. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  origin_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  upstream_error: 502,
  unavailable: 503,
} as const;

/** A code of the HTTP contract. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** The JSON body of every error response. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

/**
 * An error that maps to an HTTP response. Throw it from a handler; the app turns
 * it into JSON for /api/ paths and into the error page elsewhere.
 */
export class HttpError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: HeadersInit | undefined;

  constructor(code: ErrorCode, message: string, headers?: HeadersInit) {
    super(message);
    this.name = "HttpError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }
}

/**
 * Builds `{ "error": { "code", "message" } }` with the status of `code`.
 *
 * @example errorResponse("rate_limited", "Too many requests.", { "Retry-After": "30" })
 */
export function errorResponse(code: ErrorCode, message: string, headers?: HeadersInit): Response {
  const body: ErrorBody = { error: { code, message } };
  const h = new Headers(headers);
  h.set("Content-Type", "application/json; charset=utf-8");
  h.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { status: ERROR_STATUS[code], headers: h });
}

/** Turns an `HttpError` into its JSON response. */
export function httpErrorResponse(error: HttpError): Response {
  return errorResponse(error.code, error.message, error.headers);
}
