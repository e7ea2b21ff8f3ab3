import { define } from "@/lib/define.ts";

/**
 * POST /admin/logout: ends the admin session: its KV record is deleted, so the cookie opens
 * nothing any more even if a copy of it survives (the middleware refuses foreign origins).
 */
export const handler = define.handlers({
  async POST(ctx) {
    return new Response(null, {
      status: 303,
      headers: {
        Location: "/admin/login",
        "Set-Cookie": await ctx.app.adminSessions.end(ctx.req),
        "Cache-Control": "no-store",
      },
    });
  },
});
