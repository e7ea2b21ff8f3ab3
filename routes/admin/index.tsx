import { AdminShell } from "@/components/AdminShell.tsx";
import { UsageChart } from "@/components/admin/UsageChart.tsx";
import { type Dashboard, loadDashboard, tokensByDay } from "@/lib/admin/dashboard.ts";
import { requireAdminPage } from "@/lib/admin/guard.ts";
import { isUnauthorized } from "@/lib/admin/session.ts";
import { define } from "@/lib/define.ts";
import { setHead } from "@/lib/http/head.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { intParam } from "@/lib/http/query.ts";
import { type AdminMessages, adminMessages } from "@/lib/i18n/admin.ts";
import { format, messages } from "@/lib/i18n/mod.ts";

const PRIVATE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

/**
 * /admin: the owner's dashboard, server-rendered. The admin session cookie (after
 * /admin/login) or `Authorization: Bearer <ADMIN_TOKEN>`; without either, a redirect to the
 * login form (a wrong bearer token gets a 401).
 */
export const handler = define.handlers<Dashboard>({
  async GET(ctx) {
    try {
      await requireAdminPage(ctx);
    } catch (error) {
      if (!isUnauthorized(error) || ctx.req.headers.has("authorization")) throw error;
      return new Response(null, {
        status: 303,
        headers: { Location: "/admin/login", ...PRIVATE },
      });
    }
    const days = intParam(ctx.url, "days", { min: 1, max: 90, fallback: 30 });
    const data = await loadDashboard(ctx.app, { days });
    setHead(ctx.state, { title: adminMessages(localeOf(ctx.state)).adminTitle });
    return ctx.render(data, { headers: PRIVATE });
  },
});

export default define.page<Dashboard>(function AdminDashboard({ data, state, app }) {
  const locale = localeOf(state);
  const t = messages(locale);
  const a = adminMessages(locale);
  return (
    <AdminShell locale={locale} siteName={app.config.site.name} mainClass="admin">
      <h1>{a.adminTitle}</h1>
      <p>{format(a.adminIntro, { days: data.days })}</p>
      <form method="post" action="/admin/logout" class="admin-logout">
        <button type="submit" class="button">{a.adminLogout}</button>
      </form>
      <UsageSection data={data} a={a} />
      <LatencySection data={data} a={a} />
      <ErrorsSection data={data} a={a} />
      <FeedbackSection data={data} a={a} />
      <GapsSection data={data} a={a} />
      <ContactSection data={data} a={a} locale={t.htmlLang} />
      <IndexSection data={data} a={a} />
    </AdminShell>
  );
});

type Section = { data: Dashboard; a: AdminMessages };

function UsageSection({ data, a }: Section) {
  return (
    <section id="usage">
      <h2>{a.adminUsage}</h2>
      {data.usage.length === 0 ? <p>{a.adminUsageEmpty}</p> : (
        <>
          <UsageChart bars={tokensByDay(data.usage)} label={a.adminUsageChart} />
          <div class="admin-table">
            <table>
              <thead>
                <tr>
                  <th>{a.adminDay}</th>
                  <th>{a.adminModel}</th>
                  <th>{a.adminCalls}</th>
                  <th>{a.adminErrorsCol}</th>
                  <th>{a.adminInputTokens}</th>
                  <th>{a.adminOutputTokens}</th>
                  <th>{a.adminCost}</th>
                  <th>{a.adminStopped}</th>
                  <th>{a.adminStoppedTokens}</th>
                </tr>
              </thead>
              <tbody>
                {data.usage.map((u) => (
                  <tr key={`${u.day}/${u.model}`}>
                    <td>{u.day}</td>
                    <td>{u.model}</td>
                    <td>{u.calls}</td>
                    <td>{u.errors}</td>
                    <td>{u.inputTokens}</td>
                    <td>{u.outputTokens}</td>
                    <td>{u.costUsd.toFixed(4)}</td>
                    <td>{u.stopped}</td>
                    <td>{u.stoppedTokens}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="admin-note">{a.adminStoppedNote}</p>
        </>
      )}
    </section>
  );
}

function LatencySection({ data, a }: Section) {
  if (data.latency.length === 0) return null;
  const ms = (v: number | null) => v === null ? "–" : String(Math.round(v));
  return (
    <section id="latency">
      <h2>{a.adminLatency}</h2>
      <div class="admin-table">
        <table>
          <thead>
            <tr>
              <th>{a.adminModel}</th>
              <th>{a.adminRoute}</th>
              <th>{a.adminCalls}</th>
              <th>{a.adminTtfb}</th>
              <th>{a.adminTotal}</th>
            </tr>
          </thead>
          <tbody>
            {data.latency.map((l) => (
              <tr key={`${l.model}/${l.route}`}>
                <td>{l.model}</td>
                <td>{l.route}</td>
                <td>{l.calls}</td>
                <td>{ms(l.ttfbP50)} / {ms(l.ttfbP95)}</td>
                <td>{ms(l.totalP50)} / {ms(l.totalP95)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function ErrorsSection({ data, a }: Section) {
  return (
    <section id="errors">
      <h2>{a.adminErrors}</h2>
      {data.errors.length === 0 ? <p>{a.adminErrorsEmpty}</p> : (
        <div class="admin-table">
          <table>
            <thead>
              <tr>
                <th>{a.adminWhen}</th>
                <th>{a.adminRoute}</th>
                <th>{a.adminStatus}</th>
                <th>{a.adminError}</th>
                <th>{a.adminRequest}</th>
              </tr>
            </thead>
            <tbody>
              {data.errors.map((e) => (
                <tr key={e.requestId}>
                  <td>{new Date(e.at).toISOString().replace("T", " ").slice(0, 19)}</td>
                  <td>{e.method} {e.route ?? "–"}</td>
                  <td>{e.status}</td>
                  <td>{e.error ?? "–"}</td>
                  <td>
                    <code>{e.requestId}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function FeedbackSection({ data, a }: Section) {
  const { entries, up, down } = data.feedback;
  return (
    <section id="feedback">
      <h2>{a.adminFeedback}</h2>
      {entries.length === 0 ? <p>{a.adminFeedbackEmpty}</p> : (
        <>
          <p>{format(a.adminFeedbackCounts, { up, down })}</p>
          <ul class="admin-feedback">
            {entries.map((f) => (
              <li key={`${f.chatId}/${f.messageId}`}>
                {f.rating === "up" ? "👍" : "👎"}{" "}
                <time datetime={new Date(f.at).toISOString()}>
                  {new Date(f.at).toISOString().slice(0, 10)}
                </time>{" "}
                · {a.adminFeedbackChat} <code>{f.chatId}</code>
                {f.comment && <p class="contact-text">{f.comment}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function GapsSection({ data: { gaps }, a }: Section) {
  return (
    <section id="gaps">
      <h2>{a.adminGaps}</h2>
      {gaps.open === 0 ? <p>{a.adminGapsEmpty}</p> : (
        <>
          <p>{gaps.open === 1 ? a.adminGapsOpenOne : format(a.adminGapsOpen, { n: gaps.open })}</p>
          <ul>
            {gaps.newest.map((g) => <li key={g.question}>{g.question} ×{g.count}</li>)}
          </ul>
        </>
      )}
      <p>
        <a href="/admin/gaps">{a.adminGapsAll}</a>
      </p>
    </section>
  );
}

function ContactSection({ data, a, locale }: Section & { locale: string }) {
  return (
    <section id="contact">
      <h2>{a.adminContact}</h2>
      {data.contact.length === 0 ? <p>{a.adminContactEmpty}</p> : (
        <ul>
          {data.contact.map((m) => (
            <li key={m.id}>
              <a href={`/admin/messages#m-${m.id}`}>{m.name}</a>{" "}
              <time datetime={m.receivedAt}>
                {new Date(m.receivedAt).toLocaleString(locale, { timeZone: "UTC" })} UTC
              </time>
            </li>
          ))}
        </ul>
      )}
      <p>
        <a href="/admin/messages">{a.adminContactAll}</a>
      </p>
    </section>
  );
}

function IndexSection({ data, a }: Section) {
  const { index } = data;
  return (
    <section id="index">
      <h2>{a.adminIndex}</h2>
      {index.status === "ok"
        ? (
          <dl class="admin-index">
            <dt>{a.adminIndexDocs}</dt>
            <dd>{index.documents}</dd>
            <dt>{a.adminIndexPassages}</dt>
            <dd>{index.passages}</dd>
            <dt>{a.adminIndexMode}</dt>
            <dd>{index.mode}{index.embeddingModel ? ` (${index.embeddingModel})` : ""}</dd>
            <dt>{a.adminIndexBuilt}</dt>
            <dd>{index.builtAt ?? a.adminUnknown}</dd>
            <dt>{a.adminIndexSize}</dt>
            <dd>{index.bytes ?? a.adminUnknown}</dd>
          </dl>
        )
        : <p>{format(a.adminIndexUnavailable, { error: index.error })}</p>}
    </section>
  );
}
