import { clearAdminSessionCookie } from "@/lib/http/admin_session.ts";
import { define } from "@/lib/http/define.ts";

/** POST /admin/logout: ends the admin session (the middleware refuses foreign origins). */
export const handler = define.handlers({
  POST(ctx) {
    return new Response(null, {
      status: 303,
      headers: {
        Location: "/admin/login",
        "Set-Cookie": clearAdminSessionCookie(ctx.app.secureCookies),
        "Cache-Control": "no-store",
      },
    });
  },
});
