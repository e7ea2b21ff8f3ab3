import { define } from "@/lib/http/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { ChatShell } from "@/components/ChatShell.tsx";

/** The chat shell: a new, empty conversation. */
export default define.page(function Home({ state, app }) {
  const locale = localeOf(state);
  return (
    <ChatShell
      locale={locale}
      t={messages(locale)}
      siteName={app.config.site.name}
      suggestions={app.config.suggestions[locale]}
    />
  );
});
