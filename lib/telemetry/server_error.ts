/**
 * One server error as the request log reports it and the admin page keeps it: names and
 * codes only, never message text (error messages quote values a visitor may have typed).
 */
export interface ServerErrorEntry {
  at: number;
  requestId: string;
  method: string;
  route: string | null;
  status: number;
  /** Error class and code, e.g. "ModelDeadlineError" or "HttpError(upstream_error)". */
  error: string | null;
}
