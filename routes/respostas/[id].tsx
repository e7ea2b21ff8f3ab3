import { AdminShell } from "@/components/AdminShell.tsx";
import { define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { setHead } from "@/lib/http/head.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { gapMessages } from "@/lib/i18n/gaps.ts";
import { SITE_TEAM } from "@/lib/search/owner_overlay.ts";
import type { OwnerAnswer } from "@/lib/store/owner_answers.ts";

/**
 * /respostas/<id>: an answer the site team wrote on /admin/gaps, the page its citations link
 * to. Public once saved; never listed (llms.txt lists the curated corpus only).
 */
export const handler = define.handlers<OwnerAnswer>({
  async GET(ctx) {
    const answer = await ctx.app.ownerAnswers.get(ctx.params.id);
    if (!answer) throw new HttpError("not_found", `No answer at "${ctx.url.pathname}".`);
    // A question answered with a page of the site has no page of its own.
    if (answer.target) {
      return new Response(null, { status: 303, headers: { Location: answer.target.url } });
    }
    setHead(ctx.state, { title: answer.question });
    // Short cache: an edit or a removal shows within a minute.
    return ctx.render(answer, { headers: { "Cache-Control": "public, max-age=60" } });
  },
});

export default define.page<OwnerAnswer>(function OwnerAnswerPage({ data, state, app }) {
  const locale = localeOf(state);
  const g = gapMessages(data.lang === "en" ? "en" : "pt-BR");
  const date = new Date(data.updatedAt).toISOString().slice(0, 10);
  return (
    <AdminShell locale={locale} siteName={app.config.site.name}>
      <h1 lang={data.lang}>{data.question}</h1>
      <p class="gap-meta" lang={data.lang}>
        {g.teamAnswer}: {SITE_TEAM[data.lang]} · {g.updated} <time datetime={date}>{date}</time>
      </p>
      <div lang={data.lang}>
        {data.answer.split(/\n{2,}/).map((para, i) => <p key={i}>{para}</p>)}
      </div>
    </AdminShell>
  );
});
