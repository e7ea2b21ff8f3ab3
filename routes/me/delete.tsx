import { define } from "@/lib/define.ts";
import { readFormBody } from "@/lib/http/body.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { clearVisitorCookies, existingVisitor } from "@/lib/http/visitor.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { ConfirmPage } from "@/components/ConfirmPage.tsx";

/** "Delete my data" without JavaScript: confirm (GET), then delete everything (POST). */
export const handler = define.handlers({
  GET(ctx) {
    return ctx.render();
  },
  async POST(ctx) {
    await readFormBody(ctx.req); // nothing in it is used, but it is read under the form cap
    const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
    if (visitorId) await ctx.app.store.deleteVisitorChats(visitorId);
    const headers = new Headers({ Location: "/" });
    for (const c of clearVisitorCookies(ctx.app.secureCookies)) headers.append("Set-Cookie", c);
    return new Response(null, { status: 303, headers });
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
