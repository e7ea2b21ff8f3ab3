import type { Locale, Messages } from "@/lib/i18n/mod.ts";
import { AiToolSnippets } from "./AiToolSnippets.tsx";

/**
 * The bottom line: how the assistant works, and, when the site's MCP server is on,
 * "Use with your AI tool" with the clients' config snippets.
 */
export function Footer(
  { t, howUrl, mcpUrl = null, locale = "pt-BR" }: {
    t: Messages;
    howUrl: string;
    /** The public URL of /mcp, or null when MCP_ENABLED is false. */
    mcpUrl?: string | null;
    locale?: Locale;
  },
) {
  return (
    <footer class="footer">
      <a href={howUrl}>{t.footerHow}</a>
      {mcpUrl && <AiToolSnippets mcpUrl={mcpUrl} locale={locale} />}
    </footer>
  );
}
