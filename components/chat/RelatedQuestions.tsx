import type { Messages } from "@/lib/i18n/mod.ts";
import type { RelatedQuestion } from "@/lib/text/related_questions.ts";
import { QUESTION_FIELD } from "@/lib/protocol/form_fields.ts";

/**
 * The related questions under the last answer: each a button that asks it. Without
 * JavaScript the buttons post the chat's form (`action`), as the composer does, so the
 * question is asked all the same.
 */
export function RelatedQuestions(
  { related, t, action, onAsk }: {
    related: RelatedQuestion[];
    t: Messages;
    /** The chat page the question is posted to without JavaScript. */
    action: string;
    onAsk: (question: string) => void;
  },
) {
  return (
    <form class="related" method="post" action={action} aria-label={t.relatedQuestions}>
      <h2 class="related-title">{t.relatedQuestions}</h2>
      <ul>
        {related.map((r) => (
          <li key={r.url}>
            <button
              type="submit"
              class="related-question"
              name={QUESTION_FIELD}
              value={r.question}
              onClick={(e) => {
                e.preventDefault();
                onAsk(r.question);
              }}
            >
              {r.question}
            </button>
          </li>
        ))}
      </ul>
    </form>
  );
}
