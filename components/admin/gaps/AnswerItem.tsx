import type { GapMessages } from "@/lib/i18n/gaps.ts";
import type { OwnerAnswer } from "@/lib/store/owner_answers.ts";
import { ownerAnswerUrl } from "@/lib/search/owner_overlay.ts";
import { AnswerForm } from "./GapForms.tsx";

/**
 * A saved answer: its page, its edit form and its remove button; or the page of the site it is
 * answered with (removed and pointed again to change).
 */
export function AnswerItem(
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
