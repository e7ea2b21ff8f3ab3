import { define } from "@/lib/http/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { clearVisitorCookie, existingVisitor } from "@/lib/http/visitor.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { ConfirmPage } from "@/components/ConfirmPage.tsx";

/** "Delete my data" without JavaScript: confirm (GET), then delete everything (POST). */
export const handler = define.handlers({
  GET(ctx) {
    return ctx.render();
  },
  async POST(ctx) {
    const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
    if (visitorId) await ctx.app.store.deleteVisitorChats(visitorId);
    return new Response(null, {
      status: 303,
      headers: { Location: "/", "Set-Cookie": clearVisitorCookie(ctx.url.protocol === "https:") },
    });
  },
});

export default define.page(function DeleteMe({ state }) {
  const t = messages(localeOf(state));
  return (
    <ConfirmPage
      t={t}
      title={t.deleteAllTitle}
      body={t.deleteAllBody}
      action="/me/delete"
      confirm={t.deleteAllConfirm}
      back="/"
    />
  );
});
