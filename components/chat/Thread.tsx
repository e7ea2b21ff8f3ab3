import type { ComponentChildren } from "preact";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import type { Conversation } from "@/lib/client/use_conversation.ts";
import { errorText, textOf } from "@/lib/client/chat_text.ts";
import { format } from "@/lib/i18n/mod.ts";
import { threadClickHandler } from "@/lib/client/thread_click.ts";
import { Icon } from "@/components/Icon.tsx";
import { AnswerActions } from "./AnswerActions.tsx";
import { AnswerVersionsNav } from "./AnswerVersions.tsx";
import { answerForCopy } from "./copy_text.ts";
import { EditForm } from "./EditForm.tsx";
import { Message } from "./Message.tsx";

const NONE_ASKED: ReadonlySet<string> = new Set();

/**
 * The conversation's messages (a log), the typing dots while the question travels, the
 * error banner (with retry) and a notice. `list` is the messages as painted.
 */
export function Thread({ c, list }: { c: Conversation; list: ChatMessage[] }) {
  const { t, client: { chat } } = c;
  const error = chat.signals.errorSignal.value;
  const last = list.at(-1);
  const lastUser = list.findLast((m) => m.role === "user");
  // A related question the visitor already asked in this chat is not offered again. Read only
  // when the last answer offers them: not on every frame of a streaming answer.
  const asked = c.client.busy.value ? NONE_ASKED : new Set(
    list.flatMap((m) => m.role === "user" ? [textOf(m).trim().toLocaleLowerCase()] : []),
  );
  return (
    <>
      {
        /* The page's one h1 once the welcome is gone: heading navigation lands on the
      conversation, named by its first question. Outside the log, so it is not announced. */
      }
      <h1 class="visually-hidden">
        {format(t.conversationHeading, { question: headingOf(list) })}
      </h1>
      <div
        class="thread"
        role="log"
        aria-busy={c.client.busy.value}
        onClick={threadClickHandler(c.artifact.openFrom, t.codeCopied)}
      >
        {list.map((m, i) => (
          <ThreadItem
            key={m.id}
            c={c}
            message={m}
            questionId={list[i - 1]?.id ?? ""}
            isLast={m === last}
            isLastUser={m === lastUser}
            asked={asked}
          />
        ))}
        {chat.status === "submitted" && last?.role === "user" && (
          <p class="typing" aria-hidden="true">
            <span></span>
            <span></span>
            <span></span>
          </p>
        )}
        {error && (
          <div class="error-banner" role="alert">
            <span>{errorText(error, t)}</span>
            <button type="button" class="link-button" onClick={c.composer.retry}>
              {t.retry}
            </button>
          </div>
        )}
        {c.client.notice.value && <p class="notice" role="status">{c.client.notice.value}</p>}
      </div>
    </>
  );
}

/** Most characters of the first question that name the conversation in its heading. */
const HEADING_CHARS = 80;

/** The conversation's first question, cut at a word within 80 characters. */
function headingOf(list: ChatMessage[]): string {
  const first = list.find((m) => m.role === "user");
  const text = (first ? textOf(first) : "").replace(/\s+/g, " ").trim();
  if (text.length <= HEADING_CHARS) return text;
  const cut = text.slice(0, HEADING_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${space > HEADING_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/** One message: the edit form while it is edited, else the message and its actions. */
function ThreadItem(
  { c, message: latest, questionId, isLast, isLastUser, asked }: {
    c: Conversation;
    message: ChatMessage;
    /** The message before it: for an answer, its question. */
    questionId: string;
    isLast: boolean;
    isLastUser: boolean;
    /** The visitor's questions so far, folded: not offered again as related questions. */
    asked: ReadonlySet<string>;
  },
) {
  const { t, client: { chat }, composer: { editing }, versions } = c;
  const all = latest.role === "assistant" ? versions.versionsOf(questionId, latest) : [latest];
  const index = Math.min(versions.shown.value[questionId] ?? all.length - 1, all.length - 1);
  const m = all[index];
  const nav = all.length > 1 && (
    <AnswerVersionsNav
      t={t}
      index={index}
      count={all.length}
      onShow={(i) => (versions.shown.value = { ...versions.shown.value, [questionId]: i })}
    />
  );
  const busy = c.client.busy.value;
  if (editing.value?.id === m.id) {
    return (
      <EditForm
        t={t}
        editing={editing}
        onSave={(text, messageId) => void chat.sendMessage({ text, messageId })}
      />
    );
  }
  return (
    <Message
      message={m}
      t={t}
      agents={c.choices.agentNames}
      render={c.display.render.value}
      prerendered={c.display.prerendered}
      interrupted={c.client.stopped.value.has(m.id)}
      onRetry={!busy && isLast && m === latest
        ? () => {
          if (m.role === "assistant") versions.keep(questionId, m);
          void chat.regenerate({ messageId: m.id });
        }
        : undefined}
      streaming={busy && isLast && m.role === "assistant"}
      ask={!busy && isLast && m === latest
        ? { action: `/c/${chat.id}`, send: c.composer.send, asked }
        : undefined}
      actions={busy ? null : itemActions(c, { m, latest, questionId, isLast, isLastUser, nav })}
    />
  );
}

/**
 * The buttons under a message: an earlier version's navigation, an answer's actions, or the
 * edit button of the last question.
 */
function itemActions(
  c: Conversation,
  { m, latest, questionId, isLast, isLastUser, nav }: {
    /** The version shown, and the newest one. */
    m: ChatMessage;
    latest: ChatMessage;
    questionId: string;
    isLast: boolean;
    isLastUser: boolean;
    nav: ComponentChildren;
  },
) {
  const { t, client: { chat }, composer: { editing }, feedback, versions } = c;
  if (m !== latest) return <div class="answer-actions">{nav}</div>;
  if (m.role === "assistant") {
    return (
      <AnswerActions
        t={t}
        canRegenerate={isLast}
        rating={feedback.ratings.value[m.id] ?? null}
        copied={feedback.copied.value === m.id}
        commenting={feedback.commenting.value === m.id}
        onCopy={() => feedback.copyAnswer(m, answerForCopy(m, t.sources))}
        onRegenerate={() => {
          versions.keep(questionId, m);
          void chat.regenerate({ messageId: m.id });
        }}
        versions={nav || null}
        onRate={(r) => feedback.rate(m, r)}
        onComment={(comment) => feedback.rate(m, "down", comment)}
      />
    );
  }
  if (!isLastUser) return null;
  return (
    <button
      type="button"
      class="icon-button edit-button"
      aria-label={t.edit}
      title={t.edit}
      onClick={() => (editing.value = { id: m.id, text: textOf(m, true) })}
    >
      <Icon d="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
    </button>
  );
}
