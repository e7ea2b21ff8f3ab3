/**
 * The message list's state (islands/ChatMessages.tsx), grouped by what it serves: the chat
 * client, the composer, the pickers, the drawing of messages, scrolling, the answers'
 * feedback and versions, the artifact slot. The thread and the composer (components/chat/)
 * take it whole rather than a prop per field, which keeps the first-visit bundle small.
 */
import type { RefObject } from "preact";
import { useEffect, useMemo, useRef } from "preact/hooks";
import { type ReadonlySignal, type Signal, useSignal } from "@preact/signals";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { type AgentChoice, chatAgent, knownAgent } from "@/lib/client/agents.ts";
import { type Locale, type Messages, messages as catalog } from "@/lib/i18n/mod.ts";
import { MATH_HINT } from "@/lib/client/chat_text.ts";
import type { RenderMarkdown } from "@/lib/client/markdown.ts";
import { type ChatClient, useChatClient } from "@/lib/client/use_chat_client.ts";
import { type ModelOption, useModels } from "@/lib/client/use_models.ts";
import { useApprovals } from "@/lib/client/use_approvals.ts";
import { useFrameView } from "@/lib/client/use_frame_view.ts";
import { useMarkdown } from "@/lib/client/use_markdown.ts";
import { type ScrollPin, useScrollPin } from "@/lib/client/use_scroll_pin.ts";
import { type ComposerActions, useComposer } from "@/lib/client/use_composer.ts";
import { type AnswerFeedback, useAnswerFeedback } from "@/lib/client/use_answer_feedback.ts";
import { type AnswerVersions, useAnswerVersions } from "@/lib/client/use_answer_versions.ts";
import { type ArtifactSlot, useArtifactSlot } from "@/lib/client/use_artifact_slot.ts";

/** The question being edited in place: its id and the text so far. */
export interface Editing {
  id: string;
  text: string;
}

/** What the conversation starts from: the message list island's props (all serialisable). */
export interface ConversationOptions {
  locale: Locale;
  /** The chat shown; null on a new chat (an id is made at the first message). */
  chatId: string | null;
  initialMessages: ChatMessage[];
  /** Server-rendered markdown of the initial messages (see components/chat/prerender.ts). */
  prerendered?: Record<string, string>;
  /** The configured agents (id, name, description); a picker shows when there are several. */
  agents?: AgentChoice[];
  /** The agent preselected on a new chat (`?agent=`); ignored unless it is one of `agents`. */
  agent?: string | null;
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

/** The elements the hooks read: the island's root, the scrolling list, the question box. */
export interface ConversationRefs {
  root: RefObject<HTMLDivElement | null>;
  scroller: RefObject<HTMLDivElement | null>;
  textarea: RefObject<HTMLTextAreaElement | null>;
}

/** The question box: its text, the question edited in place, and the send/keys/retry actions. */
export interface ConversationComposer extends ComposerActions {
  input: Signal<string>;
  editing: Signal<Editing | null>;
}

/** The model and agent pickers. */
export interface ConversationChoices {
  models: Signal<ModelOption[]>;
  model: Signal<string | null>;
  agents: AgentChoice[];
  agent: Signal<string | null>;
  /** Agent id → name, for the answers' labels. */
  agentNames: Map<string, string>;
}

/** How the messages are drawn. */
export interface ConversationDisplay {
  /** The messages as painted (one frame behind the stream, use_frame_view.ts). */
  view: ReadonlySignal<ChatMessage[]>;
  /** The markdown renderer; null until it has loaded. */
  render: Signal<RenderMarkdown | null>;
  /** Server-rendered markdown of the initial messages, by message id. */
  prerendered: Record<string, string>;
  /** Flips once the approval card's code has loaded. */
  cardLoaded: ReadonlySignal<boolean>;
}

/** The message list's state and handlers, grouped (see `useConversation`). */
export interface Conversation {
  t: Messages;
  locale: Locale;
  refs: ConversationRefs;
  client: ChatClient;
  composer: ConversationComposer;
  choices: ConversationChoices;
  display: ConversationDisplay;
  scroll: ScrollPin;
  feedback: AnswerFeedback;
  versions: AnswerVersions;
  artifact: ArtifactSlot;
}

/**
 * The message list's state and handlers: each concern is a hook of its own (use_*.ts); this
 * wires them together (the request carries the picked model and agent; sending clears the
 * notice, follows the answer and loads the renderer).
 */
export function useConversation(options: ConversationOptions): Conversation {
  const { locale, chatId, initialMessages, agents = [] } = options;
  const t = catalog(locale);
  const refs: ConversationRefs = {
    root: useRef<HTMLDivElement>(null),
    scroller: useRef<HTMLDivElement>(null),
    textarea: useRef<HTMLTextAreaElement>(null),
  };
  const { choices, loadModels } = usePickers(options, agents);
  const client = useChatClient(chatId, initialMessages, {
    t,
    body: () => ({
      model: choices.model.value ?? undefined,
      agent: choices.agent.value ?? undefined,
    }),
    chatPath: options.chatPath ?? ((id: string) => `/c/${id}`),
    onChatSaved: options.onChatSaved,
  });
  const { chat, busy, notice } = client;
  const messages = chat.signals.messagesSignal;

  useEffect(() => {
    refs.root.current?.setAttribute("data-hydrated", "true");
    // Opened while an answer streams in another tab: follow it (the server answers 204 otherwise).
    if (chatId) void chat.resumeStream();
    loadModels();
  }, []);

  const cardLoaded = useApprovals(chat, messages, refs.root, () => (notice.value = t.errorGeneric));
  const view = useFrameView(messages);
  const markdown = useMarkdown(t, messages, view, busy, refs.root);
  const scroll = useScrollPin(refs.scroller, view);
  const input = useSignal("");
  const actions = useComposer(chat, busy, input, refs.textarea, (q) => {
    notice.value = null;
    scroll.pinned.value = true;
    // The answer will need the renderer: load it now, while the question travels, so a
    // fast answer does not show as plain text first.
    if (!markdown.render.peek()) markdown.loadRenderer(MATH_HINT.test(q));
  });

  return {
    t,
    locale,
    refs,
    client,
    composer: { ...actions, input, editing: useSignal<Editing | null>(null) },
    choices,
    display: { view, render: markdown.render, prerendered: options.prerendered ?? {}, cardLoaded },
    scroll,
    feedback: useAnswerFeedback(initialMessages, chat.id),
    versions: useAnswerVersions(),
    artifact: useArtifactSlot(refs.root),
  };
}

/** The pickers' state, and `loadModels` (called once the island has mounted). */
function usePickers(
  options: ConversationOptions,
  agents: AgentChoice[],
): { choices: ConversationChoices; loadModels: () => void } {
  const { models, model, load } = useModels();
  // A saved chat keeps the agent its answers used; a new one starts with `?agent=`'s, if any.
  const agent = useSignal(
    options.chatId ? chatAgent(agents, options.initialMessages) : knownAgent(agents, options.agent),
  );
  const agentNames = useMemo(() => new Map(agents.map((a) => [a.id, a.name])), []);
  return { choices: { models, model, agents, agent, agentNames }, loadModels: load };
}
