import { AdminShell } from "@/components/AdminShell.tsx";
import { ErrorPage } from "@/components/ErrorPage.tsx";
import { requireAdminPage } from "@/lib/admin/guard.ts";
import { define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { setHead } from "@/lib/http/head.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { intParam } from "@/lib/http/query.ts";
import { format, messages } from "@/lib/i18n/mod.ts";
import { CONTACT_ID, type ContactMessage, type ContactPage } from "@/lib/store/contact.ts";

type Data = { unauthorized: true } | { page: ContactPage; paged: boolean };

const PRIVATE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

/**
 * /admin/messages: the messages visitors sent the owner, newest first, paged by
 * `?cursor=`; the admin session cookie (/admin/login) or `Authorization: Bearer
 * <ADMIN_TOKEN>`, else a 401 page.
 */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const t = messages(localeOf(ctx.state));
    try {
      await requireAdminPage(ctx);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 401) throw error;
      setHead(ctx.state, { title: t.adminUnauthorizedTitle });
      const headers = new Headers(error.headers);
      for (const [name, value] of Object.entries(PRIVATE)) headers.set(name, value);
      return ctx.render({ unauthorized: true }, { status: 401, headers });
    }
    const cursor = ctx.url.searchParams.get("cursor") || undefined;
    if (cursor !== undefined && !CONTACT_ID.test(cursor)) {
      throw new HttpError(
        "invalid_request",
        'Invalid "cursor": send back the link of the previous page unchanged.',
      );
    }
    const limit = intParam(ctx.url, "limit", { min: 1, max: 100, fallback: 20 });
    const page = await ctx.app.contact.list({ cursor, limit });
    setHead(ctx.state, { title: t.adminMessagesTitle });
    return ctx.render({ page, paged: cursor !== undefined }, { headers: PRIVATE });
  },
});

export default define.page<Data>(function AdminMessages({ data, state, app, url }) {
  const locale = localeOf(state);
  const t = messages(locale);
  if ("unauthorized" in data) {
    return (
      <ErrorPage
        status={401}
        title={t.adminUnauthorizedTitle}
        body={t.adminUnauthorizedBody}
        back={t.backHome}
      />
    );
  }
  const { page, paged } = data;
  const limit = url.searchParams.get("limit");
  const older = page.cursor &&
    `?${new URLSearchParams({ cursor: page.cursor, ...(limit ? { limit } : {}) })}`;
  return (
    <AdminShell
      locale={locale}
      siteName={app.config.site.name}
      after={
        <nav class="doc-nav contact-paging">
          {paged && <a class="doc-back" href="/admin/messages">{t.adminMessagesNewest}</a>}
          {older && <a class="doc-alt" href={older} rel="next">{t.adminMessagesOlder}</a>}
        </nav>
      }
    >
      <h1>{t.adminMessagesTitle}</h1>
      <p>{t.adminMessagesIntro}</p>
      {page.messages.length === 0 && <p class="contact-empty">{t.adminMessagesEmpty}</p>}
      {page.messages.map((m) => <MessageItem key={m.id} message={m} t={t} />)}
    </AdminShell>
  );
});

/** One message; every field is text (Preact escapes it), never HTML. */
function MessageItem(
  { message: m, t }: { message: ContactMessage; t: ReturnType<typeof messages> },
) {
  const when = new Date(m.receivedAt);
  return (
    <section class="contact-message" id={`m-${m.id}`}>
      <h2>
        {t.adminMessageFrom}: {m.name} &lt;{m.email}&gt;
      </h2>
      <p class="contact-meta">
        {t.adminMessageReceived}{" "}
        <time datetime={m.receivedAt}>
          {when.toLocaleString(t.htmlLang, {
            timeZone: "UTC",
            dateStyle: "medium",
            timeStyle: "short",
          })} UTC
        </time>
        {m.context && (
          <>
            {" · "}
            {format(t.adminMessageChat, { chatId: m.context.chatId, locale: m.context.locale })}
          </>
        )}
      </p>
      <p class="contact-text">{m.message}</p>
    </section>
  );
}
