import { define } from "@/lib/define.ts";
import { routePreflight } from "@/lib/http/api_cors.ts";
import { chatStack, stackUnavailable } from "@/lib/chat/lazy.ts";

/**
 * The chat turn: a UI message stream (see lib/chat/turn_http.ts and lib/chat/turn/run.ts). The turn's modules load on
 * the first request or the warm-up (lib/chat/lazy.ts), not with the pages.
 */
export const handler = define.handlers({
  async POST(ctx) {
    let stack;
    try {
      stack = await chatStack(ctx.app);
    } catch (error) {
      // CORS headers are the middleware's (lib/http/api_cors.ts), on this answer too.
      return stackUnavailable(error);
    }
    return stack.chatTurn(ctx);
  },
  OPTIONS(ctx) {
    return routePreflight(ctx.req, ctx.url, "POST, OPTIONS");
  },
});
