import type { Messages } from "@/lib/i18n/mod.ts";
import { format } from "@/lib/i18n/mod.ts";

/** "‹ 2/3 ›": moves between the answers a question got (each Regenerate adds one). */
export function AnswerVersionsNav(
  { t, index, count, onShow }: {
    t: Messages;
    index: number;
    count: number;
    onShow: (index: number) => void;
  },
) {
  return (
    <div class="answer-versions" role="group" aria-label={t.answerVersions}>
      <button
        type="button"
        class="icon-button"
        aria-label={t.previousAnswer}
        title={t.previousAnswer}
        disabled={index === 0}
        onClick={() => onShow(index - 1)}
      >
        ‹
      </button>
      <span aria-live="polite">
        {format(t.answerVersionOf, { i: index + 1, n: count })}
      </span>
      <button
        type="button"
        class="icon-button"
        aria-label={t.nextAnswer}
        title={t.nextAnswer}
        disabled={index === count - 1}
        onClick={() => onShow(index + 1)}
      >
        ›
      </button>
    </div>
  );
}
