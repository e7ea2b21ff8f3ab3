import { AdminShell } from "@/components/AdminShell.tsx";
import { ErrorPage } from "@/components/ErrorPage.tsx";
import { requireAdminPage } from "@/lib/admin/guard.ts";
import { readFormBody } from "@/lib/http/body.ts";
import { define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { setHead } from "@/lib/http/head.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { format, messages } from "@/lib/i18n/mod.ts";
import { type GapMessages, gapMessages } from "@/lib/i18n/gaps.ts";
import type { GroupStatus } from "@/lib/gaps/answered.ts";
import { listGaps } from "@/lib/store/gaps.ts";
import {
  type AnswerTarget,
  checkOwnerAnswer,
  type OwnerAnswer,
  OwnerAnswerInputError,
} from "@/lib/store/owner_answers.ts";
import { ownerAnswerUrl } from "@/lib/search/owner_overlay.ts";
import { entryQuestion } from "@/lib/text/faq_heading.ts";
import { intParam } from "@/lib/http/query.ts";
import { type PageOf, pageOf } from "@/lib/gaps/page_of.ts";
import { Pager } from "@/components/admin/Pager.tsx";
import {
  type CandidatePage,
  candidatePages,
  pageAnswering,
  pageById,
  pagesGone,
} from "@/lib/gaps/answer_pages.ts";

/** A save that did not happen: the owner's input, shown again with why (400 or 503). */
interface Retry {
  status: 400 | 503;
  message: string;
  /** What the owner sent: action, id, question, answer, lang, pageId, page. */
  sent: Record<string, string>;
}

type Data =
  | { unauthorized: true }
  | { retry: Retry }
  | {
    /** The groups no team answer serves yet (none, or asked again since), newest first. */
    open: PageOf<GroupStatus>;
    /** The pages the search finds for each shown open group's question, by group. */
    candidates: CandidatePage[][];
    /** The groups a team answer serves: none of their questions asked again since. */
    answered: PageOf<GroupStatus>;
    answers: PageOf<OwnerAnswer>;
    /** The answers given by a page the index no longer holds (after a rebuild). */
    gone: string[];
    done: "saved" | "removed" | null;
  };

const PRIVATE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

/**
 * Each section's page, `?page=` (open groups), `?answered=` and `?answers=`; 400 past this.
 * The shown open groups' questions are searched for the pages that may answer them: one search
 * each per view (about 1 ms embedded, a few on Postgres).
 */
const PAGE_PARAM = { min: 1, max: 10_000, fallback: 1 };

/** An answer form holds a question, an answer and a language: well under 16 KiB. */
const FORM_BYTES = 16 * 1024;

/**
 * /admin/gaps: the questions the assistant could not answer, grouped, counted, newest first,
 * and the site team's answers to them. POST `action=save` (question, answer, lang, optional
 * id to edit), `action=point` (question, lang, and pageId: the passage id of one of the pages
 * the search found for the group, or page: the title or question of the site's page that
 * answers it; so that the visitors' wording finds that page) or `action=remove` (id), then
 * back to the pages shown (the form's action carries them). Each list is paged (lib/gaps/page_of.ts).
 * Admin session or bearer token, else 401.
 */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    try {
      await requireAdminPage(ctx);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 401) throw error;
      setHead(ctx.state, { title: messages(localeOf(ctx.state)).adminUnauthorizedTitle });
      const headers = new Headers(error.headers);
      for (const [name, value] of Object.entries(PRIVATE)) headers.set(name, value);
      return ctx.render({ unauthorized: true }, { status: 401, headers });
    }
    const [gaps, answers] = await Promise.all([listGaps(ctx.app.kv), ctx.app.ownerAnswers.list()]);
    const gone = await pagesGone(ctx.app.search, answers);
    const doneParam = ctx.url.searchParams.get("done");
    const done = doneParam === "saved" || doneParam === "removed" ? doneParam : null;
    setHead(ctx.state, { title: gapMessages(localeOf(ctx.state)).title });
    // The grouping loads the search analyzer: on first use, not at start.
    const { groupGaps } = await import("@/lib/gaps/group.ts");
    const { withAnswers } = await import("@/lib/gaps/answered.ts");
    const groups = withAnswers(groupGaps(gaps), answers);
    const open = pageOf(groups.open, intParam(ctx.url, "page", PAGE_PARAM));
    const answered = pageOf(groups.answered, intParam(ctx.url, "answered", PAGE_PARAM));
    const shown = pageOf(answers, intParam(ctx.url, "answers", PAGE_PARAM));
    const candidates = await Promise.all(
      open.items.map((s) => candidatePages(ctx.app.search, s.group.question)),
    );
    return ctx.render(
      { open, candidates, answered, answers: shown, gone, done },
      { headers: PRIVATE },
    );
  },
  async POST(ctx) {
    await requireAdminPage(ctx);
    const form = await readFormBody(ctx.req, FORM_BYTES);
    const id = form.get("id") || undefined;
    const store = ctx.app.ownerAnswers;
    let done: "saved" | "removed";
    if (form.get("action") === "remove") {
      if (!id || !await store.remove(id)) throw new HttpError("not_found", "No such answer.");
      done = "removed";
    } else if (form.get("action") === "save" || form.get("action") === "point") {
      try {
        const input = checkOwnerAnswer({
          question: form.get("question"),
          answer: form.get("answer"),
          lang: form.get("lang"),
          ...(form.get("action") === "point" ? { target: await pointedPage(ctx, form) } : {}),
        });
        if (!await store.save(input, id)) {
          throw new HttpError("not_found", `Answer "${id}" not found: it was removed.`);
        }
      } catch (error) {
        if (error instanceof HttpError) throw error;
        // What the owner wrote is never lost: the form comes back with it, and why.
        const g = gapMessages(localeOf(ctx.state));
        const retry = retryOf(form, error, g);
        setHead(ctx.state, { title: g.notSaved });
        return ctx.render({ retry }, { status: retry.status, headers: PRIVATE });
      }
      done = "saved";
    } else {
      throw new HttpError("invalid_request", 'Send "action": "save", "point" or "remove".');
    }
    // Back to the pages the owner was on (the form's action carries them).
    const back = new URLSearchParams(viewQuery(ctx.url));
    back.set("done", done);
    return new Response(null, {
      status: 303,
      headers: { Location: `/admin/gaps?${back}#answers`, ...PRIVATE },
    });
  },
});

/**
 * The form to send again: an input error says what to correct (400); a store or search that did
 * not answer (KV, Postgres) is logged and may be retried as it is (503).
 */
function retryOf(form: URLSearchParams, error: unknown, g: GapMessages): Retry {
  const sent: Record<string, string> = {};
  for (const name of ["action", "id", "question", "answer", "lang", "pageId", "page"]) {
    const value = form.get(name);
    if (value) sent[name] = value;
  }
  if (error instanceof OwnerAnswerInputError) {
    // A picked page that failed is picked again by title, not by the same id.
    delete sent.pageId;
    const { problem } = error;
    return { status: 400, message: format(g.problem[problem.kind], { ...problem }), sent };
  }
  console.error("Saving an answer on /admin/gaps failed:", error);
  return { status: 503, message: "", sent };
}

/** Each section's page in `url`, as a query ("?page=3&answers=2"), or "" on the first pages. */
function viewQuery(url: URL): string {
  const view = new URLSearchParams();
  for (const name of ["page", "answered", "answers"]) {
    const value = url.searchParams.get(name);
    if (value && /^\d{1,5}$/.test(value) && value !== "1") view.set(name, value);
  }
  const query = view.toString();
  return query ? `?${query}` : "";
}

/** The page a `point` form names: a page the search found (`pageId`), else by its title. */
function pointedPage(
  ctx: { app: { search: Parameters<typeof pageById>[0] } },
  form: URLSearchParams,
): Promise<AnswerTarget> {
  const id = form.get("pageId");
  return id ? pageById(ctx.app.search, id) : pageAnswering(ctx.app.search, form.get("page") ?? "");
}

export default define.page<Data>(function AdminGaps({ data, state, app, url }) {
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
  const g = gapMessages(locale);
  // The forms post back with the pages shown, so the owner returns to them.
  const action = `/admin/gaps${viewQuery(url)}`;
  if ("retry" in data) {
    return (
      <AdminShell locale={locale} siteName={app.config.site.name} mainClass="admin">
        <RetryForm retry={data.retry} g={g} action={action} />
      </AdminShell>
    );
  }
  return (
    <AdminShell locale={locale} siteName={app.config.site.name} mainClass="admin">
      <h1>{g.title}</h1>
      <p>{g.intro}</p>
      <p>
        <a href="/admin/gaps.csv" download="gaps.csv">{g.csv}</a> · <a href="/admin">/admin</a>
      </p>
      {data.done && <p role="status">{data.done === "saved" ? g.saved : g.removed}</p>}
      <div id="open">
        {data.open.total === 0 && <p>{g.empty}</p>}
        {data.open.items.map((status, i) => (
          <GroupItem
            key={i}
            status={status}
            candidates={data.candidates[i] ?? []}
            g={g}
            locale={locale}
            action={action}
          />
        ))}
        <Pager url={url} param="page" section="open" of={data.open} label={g.title} g={g} />
      </div>
      {data.answered.total > 0 && (
        <section id="answered" class="gap-answered">
          <h2>{g.answeredGroups}</h2>
          <p>{g.answeredGroupsIntro}</p>
          {data.answered.items.map((status, i) => (
            <GroupItem
              key={i}
              status={status}
              candidates={[]}
              g={g}
              locale={locale}
              action={action}
            />
          ))}
          <Pager
            url={url}
            param="answered"
            section="answered"
            of={data.answered}
            label={g.answeredGroups}
            g={g}
          />
        </section>
      )}
      <section id="answers">
        <h2>{g.answers}</h2>
        {data.answers.total === 0 && <p>{g.answersEmpty}</p>}
        {data.answers.items.map((a) => (
          <AnswerItem
            key={a.id}
            answer={a}
            g={g}
            gone={data.gone.includes(a.id)}
            action={action}
          />
        ))}
        <Pager
          url={url}
          param="answers"
          section="answers"
          of={data.answers}
          label={g.answers}
          g={g}
        />
      </section>
    </AdminShell>
  );
});

/** One group of alike questions, with the form that answers it. */
function GroupItem(
  { status: { group, answer, since }, candidates, g, locale, action }: {
    status: GroupStatus;
    candidates: CandidatePage[];
    g: GapMessages;
    locale: string;
    action: string;
  },
) {
  // Listed under "Já respondidas" (an h2): its own heading is one level down.
  const served = answer !== null && since === 0;
  const reasons = Object.entries(group.reasons)
    .map(([r, n]) => `${g.reason[r as keyof GapMessages["reason"]]} ×${n}`).join(", ");
  return (
    <section class="gap-group">
      {served ? <h3>{group.question}</h3> : <h2>{group.question}</h2>}
      <p class="gap-meta">
        {g.count}: <strong>{group.count}</strong> · {g.reasons}: {reasons} · {g.last}:{" "}
        <time datetime={new Date(group.lastAt).toISOString()}>
          {new Date(group.lastAt).toLocaleString(locale, { timeZone: "UTC" })} UTC
        </time>
      </p>
      {group.questions.length > 1 && (
        <ul class="gap-questions">
          {group.questions.slice(1, 6).map((q) => <li key={q}>{q}</li>)}
        </ul>
      )}
      {answer && (
        <p class={since ? "gap-meta gap-warning" : "gap-meta"}>
          {g.answeredBy}: <a href={`#a-${answer.id}`}>{answer.question}</a>
          {since > 0 && <>{" · "}{format(g.askedSince, { n: since })}</>}
        </p>
      )}
      {group.followed.length > 0 && (
        <p class="gap-meta">
          {g.followed}:{" "}
          {group.followed.slice(0, 5).map((q, i) => <span key={q}>{i ? " · " : ""}“{q}”</span>)}
        </p>
      )}
      <p class="gap-meta">
        {g.chats}: {group.chatIds.slice(0, 10).map((id) => <code key={id}>{id}</code>)}
      </p>
      {/* Served by its answer: that answer's own form (linked above) edits it; no second one. */}
      {!served && (
        <>
          <details>
            <summary>{g.answerThis}</summary>
            <AnswerForm g={g} question={group.question} lang={group.lang} action={action} />
          </details>
          {/* Visitors went on to a related question: the page that answers them is likely its. */}
          <details open={group.followed.length > 0 && !answer}>
            <summary>{g.pointThis}</summary>
            <PointForm
              g={g}
              action={action}
              question={group.question}
              lang={group.lang}
              page={group.followed[0]}
              candidates={candidates}
            />
          </details>
        </>
      )}
    </section>
  );
}

/** Answers a question with a page of the site: the visitors' wording then finds that page. */
function PointForm(
  { g, action, question, lang, page = "", candidates }: {
    g: GapMessages;
    action: string;
    question: string;
    lang: "pt" | "en";
    page?: string;
    /** The pages the search found for the question: one is picked, or another named. */
    candidates: CandidatePage[];
  },
) {
  // The question visitors went on to, when it is one of the pages found: that page is picked.
  const followed = candidates.find((c) => sameQuestion(entryQuestion(c.title), page));
  return (
    <form method="post" action={action} class="gap-form">
      <input type="hidden" name="action" value="point" />
      <input type="hidden" name="lang" value={lang} />
      <label>
        {g.question}
        <input name="question" value={question} required maxLength={300} />
      </label>
      {candidates.length > 0
        ? (
          <fieldset class="gap-pages">
            <legend>{g.candidates}</legend>
            {candidates.map((c) => (
              <label key={c.id} class="gap-page">
                <input
                  type="radio"
                  name="pageId"
                  value={c.id}
                  required
                  checked={c === followed}
                />
                <span>
                  {c.title}{" "}
                  <a href={c.url} target="_blank" rel="noopener">
                    {g.open}
                    <span class="visually-hidden">({g.newTab})</span>
                  </a>
                  <small class="gap-excerpt">{c.excerpt}</small>
                </span>
              </label>
            ))}
            {/* Another page, by its title: the question visitors went on to, when there is one. */}
            <label class="gap-page">
              <input
                type="radio"
                name="pageId"
                value=""
                required
                checked={page !== "" && !followed}
              />
              <span>{g.otherPage}</span>
            </label>
            <input name="page" value={page} maxLength={300} aria-label={g.page} />
          </fieldset>
        )
        : (
          <label>
            {g.page}
            <input name="page" value={page} required maxLength={300} />
          </label>
        )}
      <p class="gap-meta">{g.pageHelp}</p>
      <button type="submit" class="button">{g.point}</button>
    </form>
  );
}

/**
 * A saved answer: its page, its edit form and its remove button; or the page of the site it is
 * answered with (removed and pointed again to change).
 */
function AnswerItem(
  { answer: a, g, gone, action }: {
    answer: OwnerAnswer;
    g: GapMessages;
    gone: boolean;
    action: string;
  },
) {
  const updated = new Date(a.updatedAt).toISOString().slice(0, 10);
  return (
    <section class="gap-answer" id={`a-${a.id}`}>
      <h3>{a.question}</h3>
      {a.target
        ? (
          <p class="gap-meta">
            {g.answeredWith}: <a href={a.target.url}>{a.target.title}</a> · {g.updated} {updated}
            {gone && <strong class="gap-warning">{g.pageGone}</strong>}
          </p>
        )
        : (
          <>
            <p class="contact-text">{a.answer}</p>
            <p class="gap-meta">
              {g.updated} {updated} · <a href={ownerAnswerUrl(a.id)}>{g.view}</a>
            </p>
            <details>
              <summary>{g.edit}</summary>
              <AnswerForm
                g={g}
                action={action}
                question={a.question}
                lang={a.lang}
                answer={a.answer}
                id={a.id}
              />
            </details>
          </>
        )}
      <form method="post" action={action}>
        <input type="hidden" name="action" value="remove" />
        <input type="hidden" name="id" value={a.id} />
        <button type="submit" class="button button-quiet">{g.remove}</button>
      </form>
    </section>
  );
}

function AnswerForm(
  { g, action, question, lang, answer = "", id }: {
    g: GapMessages;
    action: string;
    question: string;
    lang: "pt" | "en";
    answer?: string;
    id?: string;
  },
) {
  return (
    <form method="post" action={action} class="gap-form">
      <input type="hidden" name="action" value="save" />
      {id && <input type="hidden" name="id" value={id} />}
      <label>
        {g.question}
        <input name="question" value={question} required maxLength={300} />
      </label>
      <label>
        {g.answerText}
        <textarea name="answer" required maxLength={4000} rows={4}>{answer}</textarea>
      </label>
      <label>
        {g.lang}
        <select name="lang">
          <option value="pt" selected={lang === "pt"}>Português</option>
          <option value="en" selected={lang === "en"}>English</option>
        </select>
      </label>
      <button type="submit" class="button">{g.save}</button>
    </form>
  );
}

/** The owner's input sent back, with what went wrong, and a way back to the list. */
function RetryForm({ retry: { status, message, sent }, g, action }: {
  retry: Retry;
  g: GapMessages;
  action: string;
}) {
  const lang = sent.lang === "en" ? "en" : "pt";
  const question = sent.question ?? "";
  return (
    <>
      <h1>{g.notSaved}</h1>
      <p role="alert">
        {status === 503 ? g.storeDown : (
          <>
            {g.fixBelow} <strong>{message}</strong>
          </>
        )}
      </p>
      {sent.action === "point"
        ? (
          <form method="post" action={action} class="gap-form">
            <input type="hidden" name="action" value="point" />
            <input type="hidden" name="lang" value={lang} />
            {sent.pageId && <input type="hidden" name="pageId" value={sent.pageId} />}
            <label>
              {g.question}
              <input name="question" value={question} required maxLength={300} />
            </label>
            {!sent.pageId && (
              <label>
                {g.page}
                <input name="page" value={sent.page ?? ""} required maxLength={300} />
              </label>
            )}
            <button type="submit" class="button">{g.point}</button>
          </form>
        )
        : (
          <AnswerForm
            g={g}
            action={action}
            question={question}
            lang={lang}
            answer={sent.answer ?? ""}
            id={sent.id}
          />
        )}
      <p>
        <a href={action}>{g.backToList}</a>
      </p>
    </>
  );
}

/** Whether two questions are the same but for case, spacing and a final "?". */
function sameQuestion(a: string, b: string): boolean {
  const plain = (q: string) =>
    q.toLocaleLowerCase().replace(/\s+/g, " ").replace(/\s*\?$/, "").trim();
  return plain(a) !== "" && plain(a) === plain(b);
}
