import type { GapMessages } from "@/lib/i18n/gaps.ts";
import { format } from "@/lib/i18n/mod.ts";
import type { GroupStatus } from "@/lib/gaps/answered.ts";
import type { CandidatePage } from "@/lib/gaps/answer_pages.ts";
import { AnswerForm, PointForm } from "./GapForms.tsx";

/**
 * One group of alike questions: what was asked, how often and why, and what the team can do with
 * it where it stands (open: answer or dismiss it; dismissed: restore it; answered: nothing here,
 * its answer's own form edits it).
 */
export function GroupItem(
  { status, candidates, g, locale, action }: {
    status: GroupStatus;
    candidates: CandidatePage[];
    g: GapMessages;
    locale: string;
    action: string;
  },
) {
  const { group, answer, dismissal, since } = status;
  const served = answer !== null && since === 0;
  const open = !served && !dismissal;
  return (
    <section class="gap-group">
      {/* Under "Já respondidas" or "Dispensadas" (an h2): one level down. */}
      {open ? <h2>{group.question}</h2> : <h3>{group.question}</h3>}
      <GroupMeta status={status} g={g} locale={locale} />
      {open && (
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
          <form method="post" action={action} class="gap-dismiss">
            <input type="hidden" name="action" value="dismiss" />
            <input type="hidden" name="question" value={group.question} />
            <input type="hidden" name="lang" value={group.lang} />
            <button type="submit" class="button button-quiet">{g.dismiss}</button>
          </form>
        </>
      )}
      {dismissal && (
        <form method="post" action={action} class="gap-dismiss">
          <input type="hidden" name="action" value="restore" />
          <input type="hidden" name="id" value={dismissal.id} />
          <button type="submit" class="button button-quiet">{g.restore}</button>
        </form>
      )}
    </section>
  );
}

/** The group's count, reasons, wordings, answer or dismissal, related questions and chats. */
function GroupMeta(
  { status: { group, answer, dismissal, since }, g, locale }: {
    status: GroupStatus;
    g: GapMessages;
    locale: string;
  },
) {
  const reasons = Object.entries(group.reasons)
    .map(([r, n]) => `${g.reason[r as keyof GapMessages["reason"]]} ×${n}`).join(", ");
  const when = (at: number) => (
    <time datetime={new Date(at).toISOString()}>
      {new Date(at).toLocaleString(locale, { timeZone: "UTC" })} UTC
    </time>
  );
  return (
    <>
      <p class="gap-meta">
        {g.count}: <strong>{group.count}</strong> · {g.reasons}: {reasons} · {g.last}:{" "}
        {when(group.lastAt)}
      </p>
      {group.questions.length > 1 && (
        <ul class="gap-questions">
          {group.questions.slice(1, 6).map((q) => <li key={q}>{q}</li>)}
        </ul>
      )}
      {dismissal
        ? (
          <p class="gap-meta">
            {g.dismissedOn}: {when(dismissal.at)}
            {since > 0 && <>{" · "}{format(g.askedSinceDismissed, { n: since })}</>}
          </p>
        )
        : answer && (
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
    </>
  );
}
