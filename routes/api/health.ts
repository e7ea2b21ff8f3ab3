import { define } from "@/lib/http/define.ts";

/** Liveness and readiness of the parts the assistant needs. */
export const handler = define.handlers({
  GET(ctx) {
    const body = { status: "ok", version: ctx.app.version };
    return Response.json(body, { headers: { "Cache-Control": "no-store" } });
  },
});
