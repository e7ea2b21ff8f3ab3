/**
 * Wrong admin tokens cost the same wherever they are tried: a bearer token on `/admin`,
 * `/admin/messages` or `/api/usage` counts against the IP's failed sign-ins exactly like
 * the login form (lib/store/login_attempts.ts), and a blocked IP gets 429 before any
 * comparison. Without this, the form's limit could be bypassed by sending the header.
 */
import type { AppServices } from "@/lib/services.ts";
import type { Context } from "./types.ts";
import { clientIp } from "./client_ip.ts";
import { HttpError } from "./errors.ts";
import { loginRetryAfter, recordLoginFailure } from "@/lib/store/login_attempts.ts";

/**
 * Runs `check` (which throws a 401 for a wrong token) under the per-IP limit of failed
 * sign-ins. Only a request that sent `Authorization` counts when refused: a visitor who
 * merely lacks the session cookie tried no token.
 */
export async function withAdminAttemptLimit(
  ctx: Pick<Context<AppServices>, "state" | "req" | "app">,
  check: () => Promise<void>,
): Promise<void> {
  const { kv, clock } = ctx.app;
  const ip = clientIp(ctx);
  const wait = await loginRetryAfter(kv, ip, clock());
  if (wait !== null) {
    throw new HttpError(
      "rate_limited",
      `Too many wrong admin tokens from this address: try again in ${wait} s.`,
      { "Retry-After": String(wait) },
    );
  }
  try {
    await check();
  } catch (error) {
    const refused = error instanceof HttpError && error.status === 401;
    if (refused && ctx.app.adminToken && ctx.req.headers.has("authorization")) {
      await recordLoginFailure(kv, ip, clock());
    }
    throw error;
  }
}
