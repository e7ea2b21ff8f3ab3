import { define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { readFormBody } from "@/lib/http/body.ts";
import { ownedChat } from "@/lib/chat/ownership.ts";
import { clampTitle } from "@/lib/chat/title.ts";

/** Form post from the chat list: rename, then back to the chat. */
export const handler = define.handlers({
  async POST(ctx) {
    const chat = await ownedChat(ctx.req, ctx.app, ctx.params.id);
    const form = await readFormBody(ctx.req);
    const title = clampTitle(form.get("title") ?? "");
    if (!title) throw new HttpError("invalid_request", "A title is required.");
    await ctx.app.store.renameChat(chat.id, title);
    return new Response(null, { status: 303, headers: { Location: `/c/${chat.id}` } });
  },
});
