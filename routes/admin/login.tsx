import { AdminShell } from "@/components/AdminShell.tsx";
import { constantTimeEqual } from "@/lib/http/admin.ts";
import { adminRetryAfter, tryAdminCredential } from "@/lib/admin/guard.ts";
import { readFormBody } from "@/lib/http/body.ts";
import { type Ctx, define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { setHead } from "@/lib/http/head.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { originAllowed, siteOrigins } from "@/lib/http/origin.ts";
import { adminMessages } from "@/lib/i18n/admin.ts";
import { format } from "@/lib/i18n/mod.ts";

type Data = { problem: "wrong" | "disabled" | null } | { problem: "limited"; minutes: number };

const PRIVATE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

/**
 * /admin/login: a form for ADMIN_TOKEN; a right token opens an admin session (kept in KV, its
 * id in a signed cookie: lib/admin/session.ts) and goes to /admin. Only this site's own pages may post it: the widget's allowed origins,
 * which the middleware lets through for the chat API, are refused here. After 10 wrong
 * tokens from one address in 15 minutes (or from its IPv6 /64, or from everyone together) it
 * answers 429, even to the right token, until the window ends (lib/store/login_attempts.ts).
 */
export const handler = define.handlers<Data>({
  GET(ctx) {
    setHead(ctx.state, { title: adminMessages(localeOf(ctx.state)).adminLoginTitle });
    const disabled = !ctx.app.adminToken;
    return ctx.render({ problem: disabled ? "disabled" : null }, {
      status: disabled ? 401 : 200,
      headers: PRIVATE,
    });
  },
  async POST(ctx) {
    const { req, url, app } = ctx;
    if (!originAllowed(req, url, siteOrigins(app.config))) {
      throw new HttpError("origin_not_allowed", "Sign in from this site's own login page.");
    }
    setHead(ctx.state, { title: adminMessages(localeOf(ctx.state)).adminLoginTitle });
    // A blocked client is answered before its body is read.
    const wait = await adminRetryAfter(ctx);
    if (wait !== null) {
      await req.body?.cancel().catch(() => {});
      return limited(ctx, wait);
    }
    const form = await readFormBody(req);
    const token = app.adminToken;
    const given = form.get("token") ?? "";
    if (!token) {
      // Compared all the same, so a disabled admin takes the same time to answer.
      await constantTimeEqual(given, "");
      return ctx.render({ problem: "disabled" }, { status: 401, headers: PRIVATE });
    }
    const tried = await tryAdminCredential(ctx, () => constantTimeEqual(given, token));
    if ("retryAfterSeconds" in tried) return limited(ctx, tried.retryAfterSeconds);
    if (!tried.right) {
      return ctx.render({ problem: "wrong" }, { status: 401, headers: PRIVATE });
    }
    const cookie = await app.adminSessions.start(token, app.clock());
    return new Response(null, {
      status: 303,
      headers: { Location: "/admin", "Set-Cookie": cookie, ...PRIVATE },
    });
  },
});

/** The 429 page of a client out of tries. */
function limited(ctx: Ctx<Data>, wait: number): Response {
  return ctx.render({ problem: "limited", minutes: Math.ceil(wait / 60) }, {
    status: 429,
    headers: { "Retry-After": String(wait), ...PRIVATE },
  });
}

export default define.page<Data>(function AdminLogin({ data, state, app }) {
  const locale = localeOf(state);
  const a = adminMessages(locale);
  return (
    <AdminShell locale={locale} siteName={app.config.site.name}>
      <h1>{a.adminLoginTitle}</h1>
      {data.problem === "disabled"
        ? <p role="alert">{a.adminLoginDisabled}</p>
        : (
          <form method="post" action="/admin/login" class="admin-login">
            <p>{a.adminLoginIntro}</p>
            {data.problem === "wrong" && <p role="alert">{a.adminLoginWrong}</p>}
            {data.problem === "limited" && (
              <p role="alert">{format(a.adminLoginLimited, { minutes: data.minutes })}</p>
            )}
            <label>
              {a.adminLoginToken}
              <input
                type="password"
                name="token"
                required
                autocomplete="current-password"
              />
            </label>
            <button type="submit" class="button">{a.adminLoginSubmit}</button>
          </form>
        )}
    </AdminShell>
  );
});
