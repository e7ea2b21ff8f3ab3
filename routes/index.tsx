import { define } from "@/lib/http/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { cursorParam } from "@/lib/http/query.ts";
import { loadShellData } from "@/lib/chat/shell_data.ts";
import { ChatShell, shellChrome, type ShellData } from "@/components/ChatShell.tsx";

/** A new, empty conversation, with the visitor's chat list. */
export const handler = define.handlers<ShellData>({
  async GET(ctx) {
    cursorParam(ctx.url); // a malformed ?cursor= is a 400 page, not a silently first page
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
