/**
 * Wrong admin tokens cost the same wherever they are tried: a bearer token on `/admin`,
 * `/admin/messages` or `/api/usage` takes a try from the same allowances as the login form
 * (lib/store/login_attempts.ts), and a client out of tries gets 429 before any comparison.
 * Without this, the form's limit could be bypassed by sending the header.
 */
import type { AppServices } from "@/lib/services.ts";
import type { Context } from "../http/types.ts";
import { requireAdmin } from "../http/admin.ts";
import { clientIp } from "../http/client_ip.ts";
import { HttpError } from "../http/errors.ts";
import { clientAddress } from "@/lib/net/ip_network.ts";

type Ctx = Pick<Context<AppServices>, "state" | "req" | "app">;

/** What {@linkcode tryAdminCredential} found. */
export type CredentialTry = { right: boolean } | { retryAfterSeconds: number };

/** The 429 of a client out of tries. */
export function adminRateLimited(retryAfterSeconds: number): HttpError {
  return new HttpError(
    "rate_limited",
    `Too many wrong admin tokens from this address: try again in ${retryAfterSeconds} s.`,
    { "Retry-After": String(retryAfterSeconds) },
  );
}

/** Seconds until the client of `ctx` may try an admin credential again, or null (reads only). */
export function adminRetryAfter(ctx: Ctx): Promise<number | null> {
  return ctx.app.loginAttempts.retryAfter(clientAddress(clientIp(ctx)), ctx.app.clock());
}

/**
 * Runs `check` (does the credential sent open the admin?) as one try: the try is taken from
 * the client's allowances first, in one atomic step, so parallel requests cannot compare more
 * credentials than allowed; a right credential gives its try back.
 */
export async function tryAdminCredential(
  ctx: Ctx,
  check: () => Promise<boolean>,
): Promise<CredentialTry> {
  const { loginAttempts, clock } = ctx.app;
  const admission = await loginAttempts.admit(clientAddress(clientIp(ctx)), clock());
  if (!admission.admitted) return { retryAfterSeconds: admission.retryAfterSeconds };
  const right = await check();
  if (right) await loginAttempts.release(admission.ticket, clock());
  return { right };
}

/**
 * Runs `check` (which throws a 401 for a wrong token) under the limit of admin tries. A
 * request that sent `Authorization` takes a try before the comparison; one that sent no
 * credential tried nothing and takes none, but still gets 429 while its client is blocked.
 */
export async function withAdminAttemptLimit(ctx: Ctx, check: () => Promise<void>): Promise<void> {
  if (!ctx.app.adminToken || !ctx.req.headers.has("authorization")) {
    const wait = await adminRetryAfter(ctx);
    if (wait !== null) throw adminRateLimited(wait);
    return await check();
  }
  let refusal: unknown = null;
  const result = await tryAdminCredential(ctx, async () => {
    try {
      await check();
      return true;
    } catch (error) {
      refusal = error;
      return false;
    }
  });
  if ("retryAfterSeconds" in result) throw adminRateLimited(result.retryAfterSeconds);
  if (!result.right) throw refusal;
}

/**
 * The guard of admin pages: `Authorization: Bearer <ADMIN_TOKEN>` (a wrong one takes a try,
 * see {@linkcode withAdminAttemptLimit}), else a live session cookie. A cookie that opens no
 * session counts as a wrong token. A live session passes even while its client is out of
 * tries: it was opened with the token, and checking it tests no guess, so a flood of wrong
 * tokens from elsewhere cannot lock a signed-in owner out. Throws 401 `unauthorized` (no
 * credential, or a refused one) or 429 `rate_limited`; a null token disables admin pages.
 */
export async function requireAdminPage(ctx: Ctx): Promise<void> {
  const { req, app } = ctx;
  const token = app.adminToken;
  if (!token || req.headers.has("authorization")) {
    return await withAdminAttemptLimit(ctx, () => requireAdmin(req, token));
  }
  const session = await app.adminSessions.check(req, token, app.clock());
  if (session === "live") return;
  if (session === "refused") {
    const tried = await tryAdminCredential(ctx, () => Promise.resolve(false));
    if ("retryAfterSeconds" in tried) throw adminRateLimited(tried.retryAfterSeconds);
    throw new HttpError("unauthorized", "The admin session has ended: sign in at /admin/login.");
  }
  await withAdminAttemptLimit(ctx, () => requireAdmin(req, token));
}
