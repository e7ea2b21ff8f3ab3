import { define } from "@/lib/define.ts";

/** GET /api/contact/status: whether messages are accepted, and how many came in 24 h. */
export const handler = define.handlers({
  async GET(ctx) {
    return Response.json(await ctx.app.contact.status(), {
      headers: { "Cache-Control": "no-store" },
    });
  },
});
