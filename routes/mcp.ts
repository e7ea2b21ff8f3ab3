import { define } from "@/lib/define.ts";
import { handleMcp } from "@/lib/mcp/http.ts";

/**
 * The site's MCP server (Streamable HTTP, stateless): tools `search_site`, `fetch_page` and
 * `ask_site` for agents and editors (lib/mcp/). OPTIONS is the API's CORS preflight,
 * answered by the middleware for allowed origins.
 */
export const handler = define.handlers({
  POST: handleMcp,
  GET: handleMcp,
  DELETE: handleMcp,
});
