/** Where agents reach this site's MCP server, for the pages that advertise it. */
import { siteOrigins } from "@/lib/http/origin.ts";

/** The public URL of `/mcp` (the site's own origin, else the request's), or null when it is off. */
export function mcpPublicUrl(
  app: { mcp: { enabled: boolean }; config: { site: { url: string | null } } },
  url: URL,
): string | null {
  if (!app.mcp.enabled) return null;
  return `${siteOrigins(app.config)[0] ?? url.origin}/mcp`;
}
