import type { ComponentChildren } from "preact";
import type { Messages } from "@/lib/i18n/mod.ts";
import { Icon } from "../Icon.tsx";

/** What the visitor can do with a finished answer. */
export interface AnswerActionsProps {
  t: Messages;
  /** Only the last answer can be regenerated. */
  canRegenerate: boolean;
  rating: "up" | "down" | null;
  copied: boolean;
  /** Whether the comment box after a thumbs-down is open. */
  commenting: boolean;
  onCopy: () => void;
  onRegenerate: () => void;
  onRate: (rating: "up" | "down") => void;
  onComment: (comment: string) => void;
  /** "‹ 1/2 ›" when the question got several answers. */
  versions?: ComponentChildren;
}

/** Copy, regenerate, thumbs up/down with an optional comment. */
export function AnswerActions(props: AnswerActionsProps) {
  const { t } = props;
  return (
    <div class="answer-actions">
      {props.versions}
      <button
        type="button"
        class="icon-button"
        onClick={props.onCopy}
        aria-label={t.copy}
        title={t.copy}
      >
        <Icon d={props.copied ? "M5 12l5 5L20 7" : "M9 9h10v10H9zM5 15V5h10"} />
        {props.copied && <span class="action-note" role="status">{t.copied}</span>}
      </button>
      {props.canRegenerate && (
        <button
          type="button"
          class="icon-button"
          onClick={props.onRegenerate}
          aria-label={t.regenerate}
          title={t.regenerate}
        >
          <Icon d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />
        </button>
      )}
      <button
        type="button"
        class="icon-button"
        aria-pressed={props.rating === "up"}
        onClick={() => props.onRate("up")}
        aria-label={t.goodAnswer}
        title={t.goodAnswer}
      >
        <Icon d="M7 11v9H4v-9zM7 11l4-7a2 2 0 0 1 3 2l-1 4h6a2 2 0 0 1 2 2.3l-1.2 6A2 2 0 0 1 17.8 20H7" />
      </button>
      <button
        type="button"
        class="icon-button"
        aria-pressed={props.rating === "down"}
        onClick={() => props.onRate("down")}
        aria-label={t.badAnswer}
        title={t.badAnswer}
      >
        <Icon d="M7 13V4H4v9zM7 13l4 7a2 2 0 0 0 3-2l-1-4h6a2 2 0 0 0 2-2.3l-1.2-6A2 2 0 0 0 17.8 4H7" />
      </button>
      {props.rating && !props.commenting && (
        <span class="action-note" role="status">{t.feedbackThanks}</span>
      )}
      {props.commenting && (
        <form
          class="feedback-form"
          onSubmit={(e) => {
            e.preventDefault();
            const data = new FormData(e.currentTarget);
            props.onComment(String(data.get("comment") ?? ""));
          }}
        >
          <label class="visually-hidden" for="feedback-comment">{t.feedbackComment}</label>
          <input
            id="feedback-comment"
            name="comment"
            maxLength={2000}
            placeholder={t.feedbackComment}
          />
          <button type="submit">{t.feedbackSend}</button>
        </form>
      )}
    </div>
  );
}
