import { define } from "@/lib/http/define.ts";
import { preflight } from "@/lib/http/origin.ts";
import { chatTurn } from "@/lib/chat/turn.ts";

/** The chat turn: a UI message stream (see lib/chat/turn.ts). */
export const handler = define.handlers({
  POST: chatTurn,
  OPTIONS(ctx) {
    return preflight(ctx.req, ctx.url, ctx.app.config.allowedOrigins, "POST, OPTIONS");
  },
});
