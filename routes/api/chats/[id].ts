import { define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { readJsonBody } from "@/lib/http/body.ts";
import { ownedChat } from "@/lib/chat/ownership.ts";
import { clampTitle } from "@/lib/chat/title.ts";
import { scrubInternal } from "@/lib/chat/scrub_internal.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

/** One of the visitor's chats: read, rename, delete. */
export const handler = define.handlers({
  async GET(ctx) {
    const chat = await ownedChat(ctx.req, ctx.app, ctx.params.id);
    const messages = scrubInternal(
      await ctx.app.store.loadMessages(chat.id, { consistency: "eventual" }) as ChatMessage[],
    );
    return Response.json({
      chat: { id: chat.id, title: chat.title, updatedAt: chat.updatedAt },
      messages,
    }, {
      headers: { "Cache-Control": "private, no-store" },
    });
  },
  async PATCH(ctx) {
    const chat = await ownedChat(ctx.req, ctx.app, ctx.params.id);
    const body = await readJsonBody(ctx.req, 4096) as { title?: unknown };
    const title = typeof body?.title === "string" ? clampTitle(body.title) : "";
    if (!title) throw new HttpError("invalid_request", 'Invalid "title": send a non-empty string.');
    const updated = await ctx.app.store.renameChat(chat.id, title);
    return Response.json({ id: chat.id, title: updated?.title ?? title });
  },
  async DELETE(ctx) {
    const chat = await ownedChat(ctx.req, ctx.app, ctx.params.id);
    await ctx.app.store.deleteChat(chat.id);
    return new Response(null, { status: 204 });
  },
});
