/** What the `/llms.txt` and `/llms-full.txt` routes share: the site's facts and the answer. */
import type { AppConfig } from "@/lib/config.ts";
import type { Context } from "@/lib/http/types.ts";
import { siteOrigins } from "@/lib/http/origin.ts";
import { localize } from "@/lib/i18n/localized.ts";
import type { LlmsSite } from "./llms_txt.ts";

/** The site as the files describe it: its English name, its public origin, whether /mcp answers. */
export function llmsSite(
  ctx: Context<{ config: AppConfig; mcp: { enabled: boolean } }>,
): LlmsSite {
  const { config, mcp } = ctx.app;
  return {
    name: localize(config.site.name, "en"),
    origin: siteOrigins(config)[0] ?? ctx.url.origin,
    mcp: mcp.enabled,
  };
}

/** A plain-text answer agents may cache for five minutes. */
export function textResponse(text: string): Response {
  return new Response(text, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
