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
import { dismissGap, restoreGap } from "@/lib/store/gap_dismissals.ts";
import {
  type AnswerTarget,
  checkOwnerAnswer,
  type OwnerAnswer,
  OwnerAnswerInputError,
  type OwnerAnswerProblem,
} from "@/lib/store/owner_answers.ts";
import { intParam } from "@/lib/http/query.ts";
import { type PageOf, pageOf } from "@/lib/gaps/page_of.ts";
import { answerMatches, filterWords, groupMatches, MAX_FILTER } from "@/lib/gaps/filter.ts";
import { Pager } from "@/components/admin/gaps/Pager.tsx";
import { GroupItem } from "@/components/admin/gaps/GroupItem.tsx";
import { AnswerItem } from "@/components/admin/gaps/AnswerItem.tsx";
import { type Retry, RetryForm } from "@/components/admin/gaps/GapForms.tsx";
import {
  type CandidatePage,
  candidatePages,
  pageAnswering,
  pageById,
  pagesGone,
} from "@/lib/gaps/answer_pages.ts";

/** What a POST did, said once the owner is back on the list. */
type Done = "saved" | "removed" | "dismissed" | "restored";
const DONE: readonly Done[] = ["saved", "removed", "dismissed", "restored"];

/** Where the owner lands after each: the section that changed. */
const DONE_SECTION: Record<Done, string> = {
  saved: "answers",
  removed: "answers",
  dismissed: "open",
  restored: "open",
};

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
    /** The groups the team dismissed as no subject of the site. */
    dismissed: PageOf<GroupStatus>;
    answers: PageOf<OwnerAnswer>;
    /** The answers given by a page the index no longer holds (after a rebuild). */
    gone: string[];
    done: Done | null;
    /** The owner's filter (`?q=`), as typed; "" for none. */
    filter: string;
  };

const PRIVATE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

/**
 * Each section's page, `?page=` (open groups), `?answered=`, `?dismissed=` and `?answers=`; 400
 * past this. The shown open groups' questions are searched for the pages that may answer them:
 * one search each per view (about 1 ms embedded, a few on Postgres).
 */
const PAGE_PARAM = { min: 1, max: 10_000, fallback: 1 };

/** An answer form holds a question, an answer and a language: well under 16 KiB. */
const FORM_BYTES = 16 * 1024;

/**
 * /admin/gaps: the questions the assistant could not answer, grouped, counted, newest first,
 * and the site team's answers to them. POST `action=save` (question, answer, lang, optional
 * id to edit), `action=point` (question, lang, and pageId: the passage id of one of the pages
 * the search found for the group, or page: the title or question of the site's page that
 * answers it; so that the visitors' wording finds that page), `action=remove` (id),
 * `action=dismiss` (question, lang: the group is no subject of the site) or `action=restore` (id
 * of the dismissal), then back to the pages shown (the form's action carries them). A save that
 * fails shows its form again with why. Each list is paged (lib/gaps/page_of.ts). Admin session
 * or bearer token, else 401.
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
    // The grouping loads the search analyzer: on first use, not at start.
    const { loadGapStatuses } = await import("@/lib/gaps/statuses.ts");
    const { answers, statuses: groups } = await loadGapStatuses(ctx.app);
    const gone = await pagesGone(ctx.app.search, answers);
    const doneParam = ctx.url.searchParams.get("done");
    const done = DONE.find((d) => d === doneParam) ?? null;
    setHead(ctx.state, { title: gapMessages(localeOf(ctx.state)).title });
    const filter = (ctx.url.searchParams.get("q") ?? "").trim().slice(0, MAX_FILTER);
    const words = filterWords(filter);
    const page = (list: GroupStatus[], param: string) =>
      pageOf(list.filter((s) => groupMatches(s, words)), intParam(ctx.url, param, PAGE_PARAM));
    const open = page(groups.open, "page");
    const answered = page(groups.answered, "answered");
    const dismissed = page(groups.dismissed, "dismissed");
    const shown = pageOf(
      answers.filter((a) => answerMatches(a, words)),
      intParam(ctx.url, "answers", PAGE_PARAM),
    );
    const candidates = await Promise.all(
      open.items.map((s) => candidatePages(ctx.app.search, s.group.question)),
    );
    return ctx.render(
      { open, candidates, answered, dismissed, answers: shown, gone, done, filter },
      { headers: PRIVATE },
    );
  },
  async POST(ctx) {
    await requireAdminPage(ctx);
    const form = await readFormBody(ctx.req, FORM_BYTES);
    const id = form.get("id") || undefined;
    const store = ctx.app.ownerAnswers;
    let done: Done;
    if (form.get("action") === "dismiss" || form.get("action") === "restore") {
      const g = gapMessages(localeOf(ctx.state));
      done = await dismissOrRestore(ctx.app.kv, form, ctx.app.clock(), g);
    } else if (form.get("action") === "remove") {
      // Removed already (another tab, a double click): what the owner asked for holds.
      if (id) await store.remove(id);
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
          throw new OwnerAnswerInputError({ kind: "answerRemoved" });
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
      throw new HttpError(
        "invalid_request",
        'Send "action": "save", "point", "remove", "dismiss" or "restore".',
      );
    }
    // Back to the pages the owner was on (the form's action carries them).
    const back = new URLSearchParams(viewQuery(ctx.url));
    back.set("done", done);
    return new Response(null, {
      status: 303,
      headers: { Location: `/admin/gaps?${back}#${DONE_SECTION[done]}`, ...PRIVATE },
    });
  },
});

/**
 * The form to send again: an input error says what to correct (400); an edit of an answer
 * removed meanwhile (in another tab) is sent again as a new one (409); a store or search that did
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
    const message = problemText(g, problem);
    if (problem.kind !== "answerRemoved") return { status: 400, message, sent };
    delete sent.id;
    return { status: 409, message, sent };
  }
  console.error("Saving an answer on /admin/gaps failed:", error);
  return { status: 503, message: "", sent };
}

/** Filters every list by words of its questions; the filter stays while paging and answering. */
function FilterForm({ filter, g }: { filter: string; g: GapMessages }) {
  return (
    <form method="get" action="/admin/gaps" role="search" class="gap-filter">
      <label>
        {g.filter}
        <input type="search" name="q" value={filter} maxLength={MAX_FILTER} />
      </label>
      <button type="submit" class="button">{g.filterButton}</button>
      {filter && <a href="/admin/gaps">{g.clearFilter}</a>}
    </form>
  );
}

/** The answered or the dismissed groups, when there are any, paged by `?<id>=`. */
function GroupSection(
  { id, title, intro, of, url, g, locale, action }: {
    id: "answered" | "dismissed";
    title: string;
    intro: string;
    of: PageOf<GroupStatus>;
    url: URL;
    g: GapMessages;
    locale: string;
    action: string;
  },
) {
  if (of.total === 0) return null;
  return (
    <section id={id} class="gap-answered" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p>{intro}</p>
      {of.items.map((status, i) => (
        <GroupItem
          key={i}
          status={status}
          candidates={[]}
          g={g}
          locale={locale}
          action={action}
        />
      ))}
      <Pager url={url} param={id} section={id} of={of} label={title} g={g} />
    </section>
  );
}

/** What the owner must correct, in the page's language. */
function problemText(g: GapMessages, problem: OwnerAnswerProblem): string {
  return format(g.problem[problem.kind], { ...problem });
}

/** Dismisses a group (question, lang) or restores one (id); a 400 names the fix. */
async function dismissOrRestore(
  kv: Deno.Kv,
  form: URLSearchParams,
  now: number,
  g: GapMessages,
): Promise<Done> {
  if (form.get("action") === "restore") {
    // Restored already (another tab, a double click): what the owner asked for holds.
    await restoreGap(kv, form.get("id") ?? "");
    return "restored";
  }
  const lang = form.get("lang");
  if (lang !== "pt" && lang !== "en") {
    throw new HttpError("invalid_request", 'Send the group\'s "lang": "pt" or "en".');
  }
  try {
    await dismissGap(kv, { question: form.get("question") ?? "", lang }, now);
  } catch (error) {
    if (error instanceof OwnerAnswerInputError) {
      // In the owner's language, as the answer forms' (at the limit of 500 dismissals).
      throw new HttpError("invalid_request", problemText(g, error.problem));
    }
    throw error;
  }
  return "dismissed";
}

/**
 * The view in `url`, as a query ("?q=pizza&page=3&answers=2"): the owner's filter and each
 * section's page; "" for the first pages, unfiltered.
 */
function viewQuery(url: URL): string {
  const view = new URLSearchParams();
  const filter = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_FILTER);
  if (filter) view.set("q", filter);
  for (const name of ["page", "answered", "dismissed", "answers"]) {
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
  const shared = { url, g, locale, action };
  return (
    <AdminShell locale={locale} siteName={app.config.site.name} mainClass="admin">
      <h1>{g.title}</h1>
      <p>{g.intro}</p>
      <p>
        <a href="/admin/gaps.csv" download="gaps.csv">{g.csv}</a> · <a href="/admin">/admin</a>
      </p>
      <FilterForm filter={data.filter} g={g} />
      {data.done && <p role="status">{g[data.done]}</p>}
      <div id="open">
        {data.open.total === 0 && <p>{data.filter ? g.noneMatch : g.empty}</p>}
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
      <GroupSection
        id="answered"
        title={g.answeredGroups}
        intro={g.answeredGroupsIntro}
        of={data.answered}
        {...shared}
      />
      <GroupSection
        id="dismissed"
        title={g.dismissedGroups}
        intro={g.dismissedGroupsIntro}
        of={data.dismissed}
        {...shared}
      />
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
