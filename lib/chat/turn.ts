/**
 * One chat turn: POST /api/chat, in three phases a reader can follow:
 * plan (lib/chat/turn_plan.ts: request, visitor, limits, history, model and
 * tools; every failure a JSON error before the stream), stream
 * (lib/chat/turn_stream.ts: the chat engine's chunks as Server-Sent Events,
 * citations checked) and save (lib/chat/turn_save.ts: the question when the
 * turn starts, the answer with how the turn ended when it ends).
 */
import type { Ctx } from "@/lib/define.ts";
import { errorResponse, HttpError } from "@/lib/http/errors.ts";
import { originAllowed, siteOrigins } from "@/lib/http/origin.ts";
import { StoreUnavailableError } from "@/lib/store/errors.ts";
import { planTurn } from "./turn_plan.ts";
import { streamTurn } from "./turn_stream.ts";

/**
 * Handles POST /api/chat. CORS headers for an allowed foreign origin are added to every
 * /api/* answer, this one included, by the middleware (lib/http/api_cors.ts).
 */
export async function chatTurn(ctx: Ctx): Promise<Response> {
  const { req, url, app } = ctx;
  try {
    // The site's public origin counts as ours: behind a TLS proxy `req.url` says http.
    if (!originAllowed(req, url, [...app.config.allowedOrigins, ...siteOrigins(app.config)])) {
      throw new HttpError(
        "origin_not_allowed",
        `Origin "${req.headers.get("origin")}" may not call this API.`,
      );
    }
    return await streamTurn(ctx, await planTurn(ctx));
  } catch (error) {
    if (error instanceof HttpError) {
      return errorResponse(error.code, error.message, error.headers);
    }
    if (error instanceof StoreUnavailableError) {
      console.error("KV unavailable before the stream:", error.cause ?? error);
      return errorResponse(
        "unavailable",
        "Storage is unavailable right now. Please try again shortly.",
      );
    }
    throw error;
  }
}
