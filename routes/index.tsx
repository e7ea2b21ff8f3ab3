import { define } from "@/lib/http/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { loadShellData } from "@/lib/chat/shell_data.ts";
import { ChatShell, shellChrome, type ShellData } from "@/components/ChatShell.tsx";

/** A new, empty conversation, with the visitor's chat list. */
export const handler = define.handlers<ShellData>({
  async GET(ctx) {
    return ctx.render(await loadShellData(ctx), {
      headers: { "Cache-Control": "private, no-store" },
    });
  },
});

export default define.page<ShellData>(function Home({ data, state, app }) {
  return (
    <ChatShell
      {...shellChrome(localeOf(state), app.config)}
      chats={data.chats}
      cursor={data.cursor}
    />
  );
});
