/**
 * POST /api/chat: adapts HTTP to the chat turn (lib/chat/turn/run.ts) and back. The
 * request becomes plain values (the body parsed, the visitor, the peer, the locale), the
 * turn's refusals become JSON errors with their codes, and its stream becomes Server-Sent
 * Events with the AI SDK's UI message protocol.
 */
import type { Ctx } from "@/lib/define.ts";
import { errorResponse, HttpError } from "@/lib/http/errors.ts";
import { readJsonBody } from "@/lib/http/body.ts";
import { resolveVisitor } from "@/lib/http/visitor.ts";
import { clientIp } from "@/lib/http/client_ip.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { originAllowed, siteOrigins } from "@/lib/http/origin.ts";
import { StoreUnavailableError } from "@/lib/store/errors.ts";
import { parseChatRequest } from "@/lib/chat/request.ts";
import { type ChatTurnInput, runChatTurn } from "@/lib/chat/turn/run.ts";
import { SSE_HEADERS, sseWriter } from "@/lib/chat/sse.ts";
import { noteTurn } from "./turn_http_facts.ts";

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
    const turn = await runChatTurn(await turnInput(ctx), app);
    noteTurn(req, turn.modelId, turn.result);
    if (turn.start === "failed") {
      // The question is saved: the cookie lets a brand-new visitor retry in the same chat.
      throw new HttpError(
        "upstream_error",
        "The model provider failed before answering. Please try again.",
        turn.setCookie ? { "Set-Cookie": turn.setCookie } : undefined,
      );
    }
    if (turn.start === "gone") return new Response(null, { status: 204 });
    const body = sseWriter({ heartbeatMs: app.heartbeatMs });
    void turn.pipeTo(body);
    const headers = new Headers(SSE_HEADERS);
    if (turn.setCookie) headers.set("Set-Cookie", turn.setCookie);
    return new Response(body.body, { headers });
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

/** The turn's input, read from the request; a bad body or visitor token throws `HttpError`. */
async function turnInput(ctx: Ctx): Promise<ChatTurnInput> {
  const { req, url, app } = ctx;
  const startedAt = app.clock();
  const request = parseChatRequest(await readJsonBody(req, app.config.maxBodyBytes));
  const visitor = await resolveVisitor(req, app.signer);
  return {
    request,
    visitor,
    ip: clientIp(ctx),
    locale: localeOf(ctx.state),
    origin: url.origin,
    signal: req.signal,
    startedAt,
  };
}
