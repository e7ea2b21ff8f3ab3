/**
 * The message list's state in one object (islands/ChatMessages.tsx): the thread and the
 * composer (components/chat/) take it whole rather than a prop per field, which keeps the
 * first-visit bundle as small as when all of this was one function.
 */
import { useEffect, useMemo, useRef } from "preact/hooks";
import { useSignal } from "@preact/signals";
import type { ChatMessagesProps } from "@/lib/client/chat_messages_props.ts";
import { chatAgent, knownAgent } from "@/lib/client/agents.ts";
import { messages as catalog } from "@/lib/i18n/mod.ts";
import { MATH_HINT } from "@/lib/client/chat_text.ts";
import { useChatClient } from "@/lib/client/use_chat_client.ts";
import { useModels } from "@/lib/client/use_models.ts";
import { useApprovals } from "@/lib/client/use_approvals.ts";
import { useFrameView } from "@/lib/client/use_frame_view.ts";
import { useMarkdown } from "@/lib/client/use_markdown.ts";
import { useScrollPin } from "@/lib/client/use_scroll_pin.ts";
import { useComposer } from "@/lib/client/use_composer.ts";
import { useAnswerFeedback } from "@/lib/client/use_answer_feedback.ts";
import { useAnswerVersions } from "@/lib/client/use_answer_versions.ts";
import { useArtifactSlot } from "@/lib/client/use_artifact_slot.ts";

/** The question being edited in place: its id and the text so far. */
export interface Editing {
  id: string;
  text: string;
}

/**
 * The message list's state and handlers: each concern is a hook of its own (use_*.ts); this
 * wires them together (the request carries the picked model and agent; sending clears the
 * notice, follows the answer and loads the renderer).
 */
export function useConversation(props: ChatMessagesProps) {
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
  const versions = useAnswerVersions();

  return {
    t,
    locale,
    prerendered: props.prerendered ?? {},
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
    versions,
  };
}

/** The message list's state and handlers (see `useConversation`). */
export type Conversation = ReturnType<typeof useConversation>;
