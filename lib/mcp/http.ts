/**
 * `/mcp` over HTTP: the Model Context Protocol's Streamable HTTP transport (the SDK's
 * web-standard one) in stateless mode, with JSON answers instead of SSE streams, so every
 * request ends with its response. Before the transport: on/off (MCP_ENABLED), the request
 * limits, the bearer token (MCP_TOKEN) and the body's size; every refusal is a JSON-RPC
 * error with the HTTP status that fits it, never a 5xx. CORS for browser clients is the
 * API's own (lib/http/api_cors.ts), applied by the middleware.
 *
 * The SDK, zod and the server (lib/mcp/transport.ts) load on the first admitted request, not
 * with the pages: a cold start never waits for them.
 */
import type { Ctx } from "@/lib/define.ts";
import { readJsonBody } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { clientIp } from "@/lib/http/client_ip.ts";
import { checkMcpLimit } from "./limits.ts";

/** JSON-RPC error codes used before a message reaches the server. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;

/** A JSON-RPC error response with no id (the request was not read, or not valid). */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
  });
}

/** Whether `given` is `Bearer <token>`, compared in constant time. */
function bearerMatches(given: string | null, token: string): boolean {
  const enc = new TextEncoder();
  const a = enc.encode(given ?? "");
  const b = enc.encode(`Bearer ${token}`);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}

/** The checks before the transport; a Response is a refusal. */
async function admit(ctx: Ctx): Promise<Response | null> {
  const { app, req } = ctx;
  if (!app.mcp.enabled) {
    return jsonRpcError(404, SERVER_ERROR, "This site's MCP server is turned off.");
  }
  if (req.method !== "POST") {
    // Stateless: no server-initiated stream to open with GET, no session to end with DELETE.
    return jsonRpcError(405, SERVER_ERROR, "Method not allowed: send JSON-RPC with POST.", {
      Allow: "POST, OPTIONS",
    });
  }
  const limited = await checkMcpLimit(app, clientIp(ctx));
  if (limited) {
    return jsonRpcError(429, SERVER_ERROR, "Too many requests. Please wait a moment.", {
      "Retry-After": String(limited.retryAfterSeconds),
    });
  }
  if (app.mcp.token && !bearerMatches(req.headers.get("authorization"), app.mcp.token)) {
    await req.body?.cancel().catch(() => {});
    return jsonRpcError(
      401,
      SERVER_ERROR,
      "Send the site's MCP token: Authorization: Bearer <MCP_TOKEN>.",
      {
        "WWW-Authenticate": 'Bearer realm="mcp"',
      },
    );
  }
  return null;
}

/** Reads the JSON body under the chat's size limit; a refusal is a JSON-RPC error. */
async function readBody(ctx: Ctx): Promise<{ body: unknown } | Response> {
  try {
    const body = await readJsonBody(ctx.req, ctx.app.config.maxBodyBytes);
    if (Array.isArray(body) && body.length === 0) {
      return jsonRpcError(400, INVALID_REQUEST, "Invalid Request: the batch is empty.");
    }
    return { body };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const code = error.code === "payload_too_large" ? INVALID_REQUEST : PARSE_ERROR;
    return jsonRpcError(error.status, code, error.message);
  }
}

/** Answers one request to `/mcp`. */
export async function handleMcp(ctx: Ctx): Promise<Response> {
  const refused = await admit(ctx);
  if (refused) return refused;
  const read = await readBody(ctx);
  if (read instanceof Response) return read;
  const { serveMcp } = await import("./transport.ts");
  return await serveMcp(ctx, read.body);
}
