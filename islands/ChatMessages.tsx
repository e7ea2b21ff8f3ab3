import { useEffect, useMemo, useRef } from "preact/hooks";
import { useSignal } from "@preact/signals";
import type { ChatMessage } from "@/lib/chat/types.ts";
import { type Locale, messages as catalog } from "@/lib/i18n/mod.ts";
import { type AgentChoice, chatAgent, knownAgent } from "@/components/chat/agents.ts";
import { Welcome } from "@/components/chat/Welcome.tsx";
import { Thread } from "@/components/chat/Thread.tsx";
import type { Editing } from "@/components/chat/EditForm.tsx";
import { Composer } from "@/components/chat/Composer.tsx";
import { ArtifactSlot } from "@/components/chat/ArtifactSlot.tsx";
import { collectArtifacts } from "@/lib/artifacts/versions.ts";
import { MATH_HINT } from "@/lib/client/chat_text.ts";
import { threadClickHandler } from "@/lib/client/thread_click.ts";
import { useChatClient } from "@/lib/client/use_chat_client.ts";
import { useModels } from "@/lib/client/use_models.ts";
import { useApprovals } from "@/lib/client/use_approvals.ts";
import { useFrameView } from "@/lib/client/use_frame_view.ts";
import { useMarkdown } from "@/lib/client/use_markdown.ts";
import { useScrollPin } from "@/lib/client/use_scroll_pin.ts";
import { useComposer } from "@/lib/client/use_composer.ts";
import { useAnswerFeedback } from "@/lib/client/use_answer_feedback.ts";
import { useArtifactSlot } from "@/lib/client/use_artifact_slot.ts";

/** Props of the message list; all serialisable. */
export interface ChatMessagesProps {
  locale: Locale;
  suggestions: string[];
  /** The chat shown; null on a new chat (an id is made at the first message). */
  chatId: string | null;
  initialMessages: ChatMessage[];
  /** Server-rendered markdown of the initial messages (see components/chat/prerender.ts). */
  prerendered?: Record<string, string>;
  /** The configured agents (id, name, description); a picker shows when there are several. */
  agents?: AgentChoice[];
  /** The agent preselected on a new chat (`?agent=`); ignored unless it is one of `agents`. */
  agent?: string | null;
  /** The separate origin artifact previews are served from (`ARTIFACT_ORIGIN`); null: `srcdoc`. */
  artifactOrigin?: string | null;
  /**
   * Called with the chat's id once the server holds it (its answer streams) and after each
   * answer. Only for a parent island (the widget keeps the id); a page cannot pass a function.
   */
  onChatSaved?: (id: string) => void;
  /**
   * The path (and query) naming chat `id`, written to the address bar once it is saved
   * (default `/c/<id>`). Only for a parent island: the widget's frame keeps a /widget URL.
   */
  chatPath?: (id: string) => string;
}

/**
 * The island's state and handlers: each concern is a hook in lib/client/ (use_*.ts); this
 * wires them together (the request carries the picked model and agent; sending clears the
 * notice, follows the answer and loads the renderer).
 */
function useConversation(props: ChatMessagesProps) {
  const { locale, chatId, initialMessages, agents = [], onChatSaved } = props;
  const chatPath = props.chatPath ?? ((id: string) => `/c/${id}`);
  const t = catalog(locale);
  const root = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const input = useSignal("");
  const [models, model, loadModels] = useModels();
  // A saved chat keeps the agent its answers used; a new one starts with `?agent=`'s, if any.
  const agent = useSignal(
    chatId ? chatAgent(agents, initialMessages) : knownAgent(agents, props.agent),
  );
  const agentNames = useMemo(() => new Map(agents.map((a) => [a.id, a.name])), []);
  const editing = useSignal<Editing | null>(null);
  const [chat, busy, notice, announcement, stopped] = useChatClient(
    chatId,
    initialMessages,
    t,
    () => ({ model: model.value ?? undefined, agent: agent.value ?? undefined }),
    chatPath,
    onChatSaved,
  );
  const messages = chat.signals.messagesSignal;

  useEffect(() => {
    root.current?.setAttribute("data-hydrated", "true");
    // Opened while an answer streams in another tab: follow it (the server answers 204 otherwise).
    if (chatId) void chat.resumeStream();
    loadModels();
  }, []);

  const cardLoaded = useApprovals(chat, messages, root, () => (notice.value = t.errorGeneric));
  const view = useFrameView(messages);
  const [render, loadRenderer] = useMarkdown(t, messages, view, busy, root);
  const [pinned, onScroll, jumpToLatest] = useScrollPin(scroller, view);
  const [send, onKeyDown, retry] = useComposer(chat, busy, input, textarea, (q) => {
    notice.value = null;
    pinned.value = true;
    // The answer will need the renderer: load it now, while the question travels, so a
    // fast answer does not show as plain text first.
    if (!render.peek()) loadRenderer(MATH_HINT.test(q));
  });
  const feedback = useAnswerFeedback(initialMessages, chat.id);
  const artifact = useArtifactSlot(root);

  return {
    t,
    chat,
    busy,
    notice,
    announcement,
    stopped,
    render,
    pinned,
    onScroll,
    jumpToLatest,
    send,
    onKeyDown,
    retry,
    agents,
    root,
    scroller,
    textarea,
    input,
    models,
    model,
    agent,
    agentNames,
    editing,
    cardLoaded,
    view,
    feedback,
    artifact,
  };
}

/**
 * The conversation: welcome, suggested questions, messages, the composer and the model picker
 * (the parts are components in components/chat/).
 */
export default function ChatMessages(props: ChatMessagesProps) {
  const c = useConversation(props);
  const { t, chat } = c;
  const [openArtifact, Panel, openArtifactFrom, closeArtifact] = c.artifact;

  void c.cardLoaded.value;
  const list = c.view.value;
  // Only a new chat picks its agent; once it has begun, it keeps the one it was sent with.
  const pickAgent = c.agents.length > 1 && !props.chatId && list.length === 0;
  const opened = openArtifact.value;
  const versions = opened ? collectArtifacts(list).get(opened.id) : undefined;

  return (
    <div class={versions ? "conversation has-artifact" : "conversation"} ref={c.root}>
      <div class="messages" ref={c.scroller} onScroll={c.onScroll}>
        {list.length === 0
          ? <Welcome t={t} suggestions={props.suggestions} onSend={c.send} />
          : (
            <Thread
              t={t}
              list={list}
              agents={c.agentNames}
              render={c.render.value}
              prerendered={props.prerendered ?? {}}
              stopped={c.stopped.value}
              busy={c.busy.value}
              waiting={chat.status === "submitted"}
              error={chat.signals.errorSignal.value}
              notice={c.notice.value}
              editing={c.editing}
              feedback={c.feedback}
              onSend={(text, messageId) => void chat.sendMessage({ text, messageId })}
              onRegenerate={(messageId) => void chat.regenerate({ messageId })}
              onRetry={c.retry}
              onClick={threadClickHandler(openArtifactFrom, t.codeCopied)}
            />
          )}
      </div>
      {!c.pinned.value && list.length > 0 && (
        <button type="button" class="jump" onClick={c.jumpToLatest}>{t.jumpToLatest}</button>
      )}
      <div class="visually-hidden" aria-live="polite" aria-atomic="true">
        {c.announcement.value}
      </div>
      <Composer
        t={t}
        locale={props.locale}
        input={c.input}
        textarea={c.textarea}
        pickAgent={pickAgent}
        agents={c.agents}
        agent={c.agent}
        models={c.models.value}
        model={c.model}
        busy={c.busy.value}
        onSubmit={() => void c.send(c.input.value)}
        onKeyDown={c.onKeyDown}
        onStop={() => void chat.stop()}
      />
      {versions && (
        <ArtifactSlot
          t={t}
          locale={props.locale}
          Panel={Panel.value}
          opened={opened!}
          versions={versions}
          artifactOrigin={props.artifactOrigin ?? null}
          onClose={closeArtifact}
        />
      )}
    </div>
  );
}
