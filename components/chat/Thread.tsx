import type { Signal } from "@preact/signals";
import type { ChatMessage } from "@/lib/chat/types.ts";
import type { RenderMarkdown } from "@/lib/client/markdown.ts";
import type { AnswerFeedback } from "@/lib/client/use_answer_feedback.ts";
import { errorText, textOf } from "@/lib/client/chat_text.ts";
import type { Messages } from "@/lib/i18n/mod.ts";
import { Icon } from "@/components/Icon.tsx";
import { AnswerActions } from "./AnswerActions.tsx";
import { EditForm, type Editing } from "./EditForm.tsx";
import { Message } from "./Message.tsx";

/** What every message of the thread shares. */
interface ItemContext {
  t: Messages;
  /** Agent names by id, for the answers' labels. */
  agents: Map<string, string>;
  render: RenderMarkdown | null;
  prerendered: Record<string, string>;
  /** Ids of answers the visitor stopped. */
  stopped: ReadonlySet<string>;
  busy: boolean;
  editing: Signal<Editing | null>;
  feedback: AnswerFeedback;
  /** Sends `text` as message `messageId` (an edited question). */
  onSend: (text: string, messageId: string) => void;
  onRegenerate: (messageId: string) => void;
}

/** Props of the thread: the messages, then what the line under them shows. */
export interface ThreadProps extends ItemContext {
  list: ChatMessage[];
  /** The question is out and no answer has begun: show the typing dots. */
  waiting: boolean;
  error: Error | undefined;
  notice: string | null;
  onRetry: () => void;
  onClick: (e: MouseEvent) => void;
}

/** The conversation's messages (a log), the typing dots, the error banner and a notice. */
export function Thread({ list, waiting, error, notice, onRetry, onClick, ...item }: ThreadProps) {
  const { t } = item;
  const last = list.at(-1);
  const lastUser = list.findLast((m) => m.role === "user");
  return (
    <div class="thread" role="log" aria-busy={item.busy} onClick={onClick}>
      {list.map((m) => (
        <ThreadItem
          key={m.id}
          {...item}
          message={m}
          isLast={m === last}
          isLastUser={m === lastUser}
        />
      ))}
      {waiting && last?.role === "user" && (
        <p class="typing" aria-hidden="true">
          <span></span>
          <span></span>
          <span></span>
        </p>
      )}
      {error && (
        <div class="error-banner" role="alert">
          <span>{errorText(error, t)}</span>
          <button type="button" class="link-button" onClick={onRetry}>
            {t.retry}
          </button>
        </div>
      )}
      {notice && <p class="notice" role="status">{notice}</p>}
    </div>
  );
}

/** One message: the edit form while it is edited, else the message and its actions. */
function ThreadItem(
  { message: m, isLast, isLastUser, ...c }: ItemContext & {
    message: ChatMessage;
    isLast: boolean;
    isLastUser: boolean;
  },
) {
  const { t, busy, feedback } = c;
  if (c.editing.value?.id === m.id) return <EditForm t={t} editing={c.editing} onSave={c.onSend} />;
  return (
    <Message
      message={m}
      t={t}
      agents={c.agents}
      render={c.render}
      prerendered={c.prerendered}
      interrupted={c.stopped.has(m.id)}
      onRetry={!busy && isLast ? () => c.onRegenerate(m.id) : undefined}
      streaming={busy && isLast && m.role === "assistant"}
      actions={busy ? null : m.role === "assistant"
        ? (
          <AnswerActions
            t={t}
            canRegenerate={isLast}
            rating={feedback.ratings.value[m.id] ?? null}
            copied={feedback.copied.value === m.id}
            commenting={feedback.commenting.value === m.id}
            onCopy={() => feedback.copyAnswer(m)}
            onRegenerate={() => c.onRegenerate(m.id)}
            onRate={(r) => feedback.rate(m, r)}
            onComment={(comment) => feedback.rate(m, "down", comment)}
          />
        )
        : isLastUser
        ? (
          <button
            type="button"
            class="icon-button edit-button"
            aria-label={t.edit}
            title={t.edit}
            onClick={() => (c.editing.value = { id: m.id, text: textOf(m, true) })}
          >
            <Icon d="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
          </button>
        )
        : null}
    />
  );
}
