import { define } from "@/lib/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { withFrameAncestors } from "@/lib/http/csp.ts";
import { siteOrigins } from "@/lib/http/origin.ts";
import { agentChoices, knownAgent } from "@/lib/client/agents.ts";
import WidgetChat from "@/islands/WidgetChat.tsx";
import { localize } from "@/lib/i18n/localized.ts";
import { siteSuggestions } from "@/lib/corpus/suggestions.ts";
import { mcpPublicUrl } from "@/lib/mcp/public_url.ts";

interface Data {
  agent: string | null;
  suggestions: string[];
}

/**
 * /widget: the chat inside the embeddable widget's frame (lib/widget/loader.ts puts it in an
 * iframe on other sites). Only `allowedOrigins` (and the site itself) may frame it, through
 * CSP `frame-ancestors`. Nothing in it depends on the visitor: the frame's script
 * (static/widget_frame.js) gives every API call the visitor token, and the island reopens
 * the chat the frame kept. `?lang=` and `?agent=` come from the loader's `data-` attributes.
 */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const lang = ctx.url.searchParams.get("lang");
    if (lang === "en" || lang === "pt-BR") ctx.state.locale = lang;
    const agent = knownAgent(
      agentChoices(ctx.app.agents, localeOf(ctx.state)),
      ctx.url.searchParams.get("agent"),
    );
    const suggestions = await siteSuggestions(localeOf(ctx.state), ctx.app.config.suggestions);
    const res = ctx.render({ agent, suggestions }, { headers: { "Cache-Control": "no-store" } });
    const ancestors = [...ctx.app.config.allowedOrigins, ...siteOrigins(ctx.app.config)];
    const policy = res.headers.get("Content-Security-Policy") ?? "";
    res.headers.set("Content-Security-Policy", withFrameAncestors(policy, ancestors));
    return res;
  },
});

export default define.page<Data>(function Widget({ data, state, app, url }) {
  const locale = localeOf(state);
  return (
    <div class="shell widget-shell">
      <WidgetChat
        locale={locale}
        siteName={localize(app.config.site.name, locale)}
        suggestions={data.suggestions}
        agents={agentChoices(app.agents, locale)}
        agent={data.agent}
        mcpUrl={mcpPublicUrl(app, url)}
      />
      <link rel="stylesheet" href="/widget.css" />
      {/* Before the island's module scripts run: its first API call already needs the token. */}
      <script src="/widget_frame.js"></script>
    </div>
  );
});
