/**
 * One admitted `/mcp` request through the SDK's web-standard Streamable HTTP transport:
 * stateless (no session id, a new server and transport per request) and with JSON answers,
 * so the response is complete when the tools are done and nothing of the call outlives it.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Ctx } from "@/lib/define.ts";
import { clientIp } from "@/lib/http/client_ip.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { siteOrigins } from "@/lib/http/origin.ts";
import { localize } from "@/lib/i18n/localized.ts";
import { publicDocs } from "@/lib/corpus/public_docs.ts";
import { createMcpServer } from "./server.ts";
import { askSite } from "./ask_tool.ts";

/** Serves the JSON-RPC message(s) `body` (already read and size-checked) of `ctx.req`. */
export async function serveMcp(ctx: Ctx, body: unknown): Promise<Response> {
  const { app, url, state } = ctx;
  const origin = siteOrigins(app.config)[0] ?? url.origin;
  const ip = clientIp(ctx);
  const server = createMcpServer({
    siteName: localize(app.config.site.name, "en"),
    version: app.version,
    search: app.search,
    docs: publicDocs,
    site: { origin, siteOrigins: [...app.config.allowedOrigins, ...siteOrigins(app.config)] },
    ask: (question, language) =>
      askSite(app, question, {
        ip,
        origin,
        locale: language === "en" ? "en" : language === "pt" ? "pt-BR" : localeOf(state),
      }),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(ctx.req, { parsedBody: body });
  } finally {
    await server.close().catch(() => {});
  }
}
