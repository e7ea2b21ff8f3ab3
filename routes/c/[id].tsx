import { define } from "@/lib/define.ts";
import { mcpPublicUrl } from "@/lib/mcp/public_url.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { setHead } from "@/lib/http/head.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";
import { CHAT_ID } from "@/lib/protocol/chat_id.ts";
import { answerFormPost } from "@/lib/chat/form_post.ts";
import { loadShellData, type ShellData } from "@/lib/chat/shell_data.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { ChatShell, shellChrome } from "@/components/ChatShell.tsx";
import { prerenderMessages } from "@/components/chat/prerender.ts";
import { savedChatMarkdown } from "@/components/chat/saved_markdown.ts";
import { scrubInternal } from "@/lib/chat/scrub_internal.ts";

interface Data extends ShellData {
  id: string;
  messages: ChatMessage[];
  prerendered: Record<string, string>;
}

/**
 * A saved conversation, rendered on the server; another visitor's chat is a 404 like a missing
 * one. Its form posted without JavaScript asks the next question and shows it answered.
 */
export const handler = define.handlers<Data>({
  POST(ctx) {
    if (!CHAT_ID.test(ctx.params.id)) throw new HttpError("not_found", "Chat not found.");
    return answerFormPost(ctx, ctx.params.id);
  },
  async GET(ctx) {
    const { app, params } = ctx;
    if (!CHAT_ID.test(params.id)) throw new HttpError("not_found", "Chat not found.");
    const [visitorId, chat, shell] = await Promise.all([
      existingVisitor(ctx.req, app.signer),
      app.store.getChat(params.id),
      loadShellData(ctx),
    ]);
    if (chat && chat.visitorId !== visitorId) throw new HttpError("not_found", "Chat not found.");
    // No record and no answer under way: deleted (or never saved), a 404 with the way home.
    if (!chat && !await app.streamLog.active(params.id)) {
      throw new HttpError("not_found", "Chat not found.");
    }
    // No record yet: a chat whose first answer is streaming (its save failed), shown empty.
    const list = chat
      ? scrubInternal(await app.store.loadMessages(params.id) as ChatMessage[])
      : [];
    const prerendered = list.length
      ? prerenderMessages(list, await savedChatMarkdown(localeOf(ctx.state)))
      : {};
    if (chat?.title) setHead(ctx.state, { title: chat.title });
    return ctx.render({ id: params.id, messages: list, prerendered, ...shell }, {
      headers: { "Cache-Control": "private, no-store" },
    });
  },
});

export default define.page<Data>(function ChatPage({ data, state, app, url }) {
  return (
    <ChatShell
      {...shellChrome(localeOf(state), app.config, app.agentConfigs, app.artifactOrigin)}
      mcpUrl={mcpPublicUrl(app, url)}
      chatId={data.id}
      messages={data.messages}
      prerendered={data.prerendered}
      chats={data.chats}
      cursor={data.cursor}
      suggestions={data.suggestions}
    />
  );
});
