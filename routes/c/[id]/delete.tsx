import { define } from "@/lib/define.ts";
import { readFormBody } from "@/lib/http/body.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { ownedChat } from "@/lib/chat/ownership.ts";
import { ConfirmPage } from "@/components/ConfirmPage.tsx";

interface Data {
  id: string;
  title: string | null;
}

/** Asks before deleting a chat (GET), then deletes it (POST) and goes to a new chat. */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const chat = await ownedChat(ctx.req, ctx.app, ctx.params.id);
    return ctx.render({ id: chat.id, title: chat.title });
  },
  async POST(ctx) {
    const chat = await ownedChat(ctx.req, ctx.app, ctx.params.id);
    await readFormBody(ctx.req); // nothing in it is used, but it is read under the form cap
    await ctx.app.store.deleteChat(chat.id);
    return new Response(null, { status: 303, headers: { Location: "/" } });
  },
});

export default define.page<Data>(function DeleteChat({ data, state }) {
  const t = messages(localeOf(state));
  return (
    <ConfirmPage
      t={t}
      title={t.deleteTitle}
      body={`${data.title ?? t.untitled} — ${t.deleteConfirm}`}
      action={`/c/${data.id}/delete`}
      confirm={t.delete}
      back={`/c/${data.id}`}
    />
  );
});
