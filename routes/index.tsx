import { define } from "@/lib/http/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { loadShellData } from "@/lib/chat/shell_data.ts";
import { ChatShell, type ShellData } from "@/components/ChatShell.tsx";

/** A new, empty conversation, with the visitor's chat list. */
export const handler = define.handlers<ShellData>({
  async GET(ctx) {
    return ctx.render(await loadShellData(ctx), {
      headers: { "Cache-Control": "private, no-store" },
    });
  },
});

export default define.page<ShellData>(function Home({ data, state, app }) {
  const locale = localeOf(state);
  return (
    <ChatShell
      locale={locale}
      t={messages(locale)}
      siteName={app.config.site.name}
      suggestions={app.config.suggestions[locale]}
      chats={data.chats}
      cursor={data.cursor}
    />
  );
});
