import { define } from "@/lib/http/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { readCookie, VISITOR_COOKIE } from "@/lib/http/visitor.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { CHAT_ID } from "@/lib/chat/request.ts";
import type { ChatMessage } from "@/lib/chat/types.ts";
import { ChatShell } from "@/components/ChatShell.tsx";

interface Data {
  id: string;
  messages: ChatMessage[];
}

/** A saved conversation, rendered on the server; another visitor's chat is a 404 like a missing one. */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { app, params } = ctx;
    if (!CHAT_ID.test(params.id)) throw new HttpError("not_found", "Chat not found.");
    const raw = readCookie(ctx.req, VISITOR_COOKIE);
    const visitorId = raw ? await app.signer.verify(raw) : null;
    const chat = await app.store.getChat(params.id);
    if (!chat || !visitorId || chat.visitorId !== visitorId) {
      // A chat id the visitor made but never sent yet also lands here: show an empty chat with that id.
      if (!chat) return ctx.render({ id: params.id, messages: [] });
      throw new HttpError("not_found", "Chat not found.");
    }
    const list = await app.store.loadMessages(params.id, {
      consistency: "eventual",
    }) as ChatMessage[];
    return ctx.render({ id: params.id, messages: list }, {
      headers: { "Cache-Control": "private, no-store" },
    });
  },
});

export default define.page<Data>(function ChatPage({ data, state, app }) {
  const locale = localeOf(state);
  return (
    <ChatShell
      locale={locale}
      t={messages(locale)}
      siteName={app.config.site.name}
      suggestions={app.config.suggestions[locale]}
      chatId={data.id}
      messages={data.messages}
    />
  );
});
