import { useEffect, useMemo, useRef } from "preact/hooks";
import { useComputed, useSignal, useSignalEffect } from "@preact/signals";
import { Chat, ChatRequestError } from "@/lib/client/chat.ts";
import { APPROVAL_EVENT, type ApprovalDecision, hasApprovalPart } from "@/lib/client/approval.ts";
import { approvalCard, loadApprovalCard } from "@/lib/client/approval_slot.ts";
import type { RenderMarkdown } from "@/lib/client/markdown.ts";
import type { ChatMessage } from "@/lib/chat/types.ts";
import { format, type Locale, messages as catalog } from "@/lib/i18n/mod.ts";
import { Message } from "@/components/chat/Message.tsx";
import { type AgentChoice, chatAgent, knownAgent } from "@/components/chat/agents.ts";
import { AnswerActions } from "@/components/chat/AnswerActions.tsx";
import { Icon } from "@/components/Icon.tsx";
import { collectArtifacts } from "@/lib/artifacts/versions.ts";
import {
  artifactPanel,
  type ArtifactPanelComponent,
  loadArtifactPanel,
  pageNonce,
} from "@/lib/client/artifact_slot.ts";

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

interface ModelOption {
  id: string;
  label: string;
  /** The label in every language (GET /api/models). */
  labels?: Partial<Record<Locale, string>>;
  available: boolean;
}

/** Text that may hold TeX math (`$`, `\\(`, `\\[`): load the math renderer with markdown. */
const MATH_HINT = /\$|\\\(|\\\[/;

function newChatId(): string {
  return "c" + crypto.randomUUID().replaceAll("-", "").slice(0, 20);
}

/** The conversation: welcome, suggested questions, messages, the composer and the model picker. */
export default function ChatMessages(
  {
    locale,
    suggestions,
    chatId,
    initialMessages,
    prerendered = {},
    agents = [],
    agent: preset,
    artifactOrigin = null,
    onChatSaved,
    chatPath = (id) => `/c/${id}`,
  }: ChatMessagesProps,
) {
  const t = catalog(locale);
  const root = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const input = useSignal("");
  const models = useSignal<ModelOption[]>([]);
  const model = useSignal<string | null>(null);
  // A saved chat keeps the agent its answers used; a new one starts with `?agent=`'s, if any.
  const agent = useSignal(
    chatId ? chatAgent(agents, initialMessages) : knownAgent(agents, preset),
  );
  const agentNames = useMemo(() => new Map(agents.map((a) => [a.id, a.name])), []);
  const render = useSignal<RenderMarkdown | null>(null);
  const notice = useSignal<string | null>(null);
  const announcement = useSignal("");
  const pinned = useSignal(true);
  const stopped = useSignal<ReadonlySet<string>>(new Set());
  const ratings = useSignal<Record<string, "up" | "down" | null>>(
    Object.fromEntries(initialMessages.map((m) => [m.id, m.metadata?.feedback?.rating ?? null])),
  );
  const commenting = useSignal<string | null>(null);
  const copied = useSignal<string | null>(null);
  const editing = useSignal<{ id: string; text: string } | null>(null);
  // Flips once the approval card's code has loaded, to re-render the messages holding one.
  const cardLoaded = useSignal(approvalCard() != null);
  // The open artifact (its panel loads on the first open) and the card to give focus back to.
  const openArtifact = useSignal<{ id: string; version: number } | null>(null);
  const Panel = useSignal<ArtifactPanelComponent | null>(artifactPanel());

  /** Writes chat `id`'s path to the address bar; false when it was there already. */
  const nameInUrl = (id: string) => {
    const path = chatPath(id);
    if (location.pathname + location.search === path) return false;
    history.replaceState(null, "", path);
    return true;
  };

  const chat = useMemo(() => {
    const id = chatId ?? newChatId();
    return new Chat<ChatMessage>({
      id,
      messages: initialMessages,
      body: () => ({ model: model.value ?? undefined, agent: agent.value ?? undefined }),
      onData: (part) => {
        if (part.type === "data-notice") notice.value = t.saveFailed;
      },
      onFinish: ({ message, isAbort, isError }) => {
        // The server marks the saved answer; the stream was cut, so mark it here as well.
        if (isAbort && message.role === "assistant") {
          stopped.value = new Set([...stopped.value, message.id]);
        }
        if (!isError) announcement.value = textOf(message).slice(0, 500) || t.interrupted;
        // Failed before any answer: the server saved nothing, so no /c/ URL and no list entry.
        if (isError && chat.messages.at(-1)?.role === "user") return;
        nameInUrl(chat.id);
        onChatSaved?.(chat.id);
        const announce = (title?: string) =>
          document.dispatchEvent(
            new CustomEvent("assistant:chat", { detail: { id: chat.id, title } }),
          );
        if (!isAbort && !isError && chat.messages.length <= 2) {
          void nameChat(chat.id).then(announce);
        } else announce();
      },
    });
  }, []);

  const messages = chat.signals.messagesSignal;
  const status = chat.signals.statusSignal;
  const busy = useComputed(() => status.value === "submitted" || status.value === "streaming");

  // Once the answer streams the chat is saved: name it in the URL now, so a reload mid-answer
  // reopens it (and resumes the answer) instead of an empty chat.
  useSignalEffect(() => {
    if (status.value !== "streaming" || !nameInUrl(chat.id)) return;
    onChatSaved?.(chat.id);
  });

  useEffect(() => {
    root.current?.setAttribute("data-hydrated", "true");
    // Opened while an answer streams in another tab: follow it (the server answers 204 otherwise).
    if (chatId) void chat.resumeStream();
    fetch("/api/models").then((r) => r.ok ? r.json() : null).then((data) => {
      if (!data) return;
      models.value = data.models;
      model.value ??= data.defaultModel;
    }).catch(() => {});
  }, []);

  // The approval card loads only when a message holds an approval (never on a first visit).
  useSignalEffect(() => {
    if (cardLoaded.value || !messages.value.some(hasApprovalPart)) return;
    void loadApprovalCard().then(() => (cardLoaded.value = true));
  });

  // Cards send the visitor's decision as a DOM event (their props stay serialisable).
  useEffect(() => {
    const el = root.current;
    const onDecision = (e: Event) => {
      const decision = (e as CustomEvent<ApprovalDecision>).detail;
      chat.addToolApprovalResponse(decision).catch(() => (notice.value = t.errorGeneric));
    };
    el?.addEventListener(APPROVAL_EVENT, onDecision);
    return () => el?.removeEventListener(APPROVAL_EVENT, onDecision);
  }, []);

  // The SDK updates the streaming message per chunk; the list renders at most once a frame.
  // One frame is scheduled at a time and never pushed back, so a fast stream still paints
  // every frame instead of waiting for a pause.
  const view = useSignal(messages.peek());
  const frame = useRef(0);
  useSignalEffect(() => {
    const next = messages.value;
    if (typeof requestAnimationFrame !== "function") {
      view.value = next;
      return;
    }
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      view.value = messages.peek();
    });
  });
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  // Code blocks are highlighted once an answer is complete; the highlighter loads only then.
  useSignalEffect(() => {
    if (busy.value || !render.value) return;
    void view.value;
    requestAnimationFrame(() => {
      const blocks = root.current?.querySelectorAll<HTMLElement>(
        "pre code[class*='language-']:not([data-hl])",
      );
      if (blocks?.length) import("@/lib/client/highlight.ts").then((h) => h.highlightAll(blocks));
    });
  });

  // Markdown loads on demand: the first visit to an empty chat does not pay for it. Math
  // (temml) loads with it when an answer may hold some, or once the renderer meets math.
  const mathLoading = useRef(false);
  const rendererRequested = useRef(false);
  function loadRenderer(withMath: boolean) {
    // Asked for on send and again as messages change: load each module once.
    if (withMath ? mathLoading.current : rendererRequested.current) return;
    rendererRequested.current = true;
    if (withMath) mathLoading.current = true;
    void Promise.all([
      import("@/lib/client/markdown.ts"),
      withMath ? import("@/lib/client/math.ts") : null,
    ]).then(([m, math]) => {
      render.value = m.createMarkdown({ source: t.source, copyCode: t.copyCode }, {
        math: math?.renderMath,
        onMathWithoutRenderer: () => {
          if (!mathLoading.current) loadRenderer(true);
        },
      });
    });
  }
  useSignalEffect(() => {
    if (render.value) return;
    const answers = messages.value.filter((m) => m.role === "assistant");
    if (answers.length) loadRenderer(answers.some((m) => MATH_HINT.test(textOf(m, true))));
  });

  // Keep the newest message in view unless the visitor scrolled up.
  useSignalEffect(() => {
    void view.value;
    const el = scroller.current;
    if (el && pinned.peek()) requestAnimationFrame(() => el.scrollTo({ top: el.scrollHeight }));
  });

  function onScroll() {
    const el = scroller.current;
    if (el) pinned.value = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  }

  async function send(text: string) {
    const q = text.trim();
    if (!q || busy.value) return;
    input.value = "";
    notice.value = null;
    pinned.value = true;
    // The answer will need the renderer: load it now, while the question travels, so a fast
    // answer does not show as plain text first.
    if (!render.peek()) loadRenderer(MATH_HINT.test(q));
    // A suggestion button disappears when sent: keep keyboard focus (and Esc to stop) in the composer.
    textarea.current?.focus();
    await chat.sendMessage({ text: q });
    textarea.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send(input.value);
    } else if (e.key === "Escape" && busy.value) {
      e.preventDefault();
      void chat.stop();
    }
  }

  async function retry() {
    // Approval responses whose sending failed: send them again.
    if (await chat.continueAfterApprovals()) return;
    const last = chat.messages.at(-1);
    // A failure before any answer: send the question again; otherwise redo the answer.
    if (last?.role === "user") void chat.sendMessage({ text: textOf(last), messageId: last.id });
    else void chat.regenerate();
  }

  async function copyAnswer(m: ChatMessage) {
    await navigator.clipboard.writeText(textOf(m, true));
    copied.value = m.id;
    setTimeout(() => copied.value === m.id && (copied.value = null), 1500);
  }

  async function rate(m: ChatMessage, rating: "up" | "down", comment?: string) {
    const same = ratings.value[m.id] === rating && comment === undefined;
    const next = same ? null : rating;
    ratings.value = { ...ratings.value, [m.id]: next };
    commenting.value = next === "down" && comment === undefined ? m.id : null;
    await fetch(`/api/chats/${encodeURIComponent(chat.id)}/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messageId: m.id, rating: next, comment }),
    }).catch(() => {});
  }

  function openArtifactFrom(button: HTMLElement) {
    const id = button.dataset.artifactOpen!;
    openArtifact.value = { id, version: Number(button.dataset.artifactVersion) || 1 };
    if (!Panel.value) void loadArtifactPanel().then((p) => (Panel.value = p));
  }

  function closeArtifact() {
    const open = openArtifact.value;
    openArtifact.value = null;
    if (!open) return;
    // Back to the card that opened it (or the artifact's latest card, if that one is gone).
    const cards = root.current?.querySelectorAll<HTMLElement>(
      `[data-artifact-open="${CSS.escape(open.id)}"]`,
    );
    const card = [...cards ?? []].find((c) => c.dataset.artifactVersion === String(open.version)) ??
      cards?.[cards.length - 1];
    requestAnimationFrame(() => card?.focus());
  }

  function onThreadClick(e: MouseEvent) {
    const artifact = (e.target as HTMLElement).closest<HTMLElement>("[data-artifact-open]");
    if (artifact) return openArtifactFrom(artifact);
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>("[data-copy-code]");
    if (!button) return;
    const code = button.closest(".code-block")?.querySelector("code")?.textContent ?? "";
    void navigator.clipboard.writeText(code).then(() => {
      const label = button.textContent;
      button.textContent = t.codeCopied;
      setTimeout(() => (button.textContent = label), 1500);
    });
  }

  void cardLoaded.value;
  const error = chat.signals.errorSignal.value;
  const list = view.value;
  const last = list.at(-1);
  const lastUser = list.findLast((m) => m.role === "user");
  // Only a new chat picks its agent; once it has begun, it keeps the one it was sent with.
  const pickAgent = agents.length > 1 && !chatId && list.length === 0;
  const opened = openArtifact.value;
  const versions = opened ? collectArtifacts(list).get(opened.id) : undefined;
  const ArtifactPanel = Panel.value;

  return (
    <div class={versions ? "conversation has-artifact" : "conversation"} ref={root}>
      <div class="messages" ref={scroller} onScroll={onScroll}>
        {list.length === 0
          ? (
            <section class="welcome" aria-labelledby="welcome-title">
              <h1 id="welcome-title" class="welcome-title">{t.welcomeTitle}</h1>
              <p class="welcome-body">{t.welcomeBody}</p>
              <h2 class="visually-hidden">{t.suggestionsLabel}</h2>
              <ul class="suggestions">
                {suggestions.map((s) => (
                  <li key={s}>
                    <button type="button" class="suggestion" onClick={() => send(s)}>{s}</button>
                  </li>
                ))}
              </ul>
            </section>
          )
          : (
            <div class="thread" role="log" aria-busy={busy.value} onClick={onThreadClick}>
              {list.map((m) =>
                editing.value?.id === m.id
                  ? (
                    <form
                      key={m.id}
                      class="edit-form"
                      onSubmit={(e) => {
                        e.preventDefault();
                        const text = editing.value?.text.trim();
                        editing.value = null;
                        if (text) void chat.sendMessage({ text, messageId: m.id });
                      }}
                    >
                      <label class="visually-hidden" for="edit-input">{t.edit}</label>
                      <textarea
                        id="edit-input"
                        value={editing.value.text}
                        onInput={(e) => (editing.value = { id: m.id, text: e.currentTarget.value })}
                        onKeyDown={(e) => {
                          if (e.key === "Escape") editing.value = null;
                        }}
                        ref={(el) => el?.focus()}
                      />
                      <div class="edit-actions">
                        <button
                          type="button"
                          class="button-quiet"
                          onClick={() => (editing.value = null)}
                        >
                          {t.cancel}
                        </button>
                        <button type="submit" class="button-primary">{t.editSave}</button>
                      </div>
                    </form>
                  )
                  : (
                    <Message
                      key={m.id}
                      message={m}
                      t={t}
                      agents={agentNames}
                      render={render.value}
                      prerendered={prerendered}
                      interrupted={stopped.value.has(m.id)}
                      onRetry={!busy.value && m === last
                        ? () => chat.regenerate({ messageId: m.id })
                        : undefined}
                      streaming={busy.value && m === last && m.role === "assistant"}
                      actions={busy.value ? null : m.role === "assistant"
                        ? (
                          <AnswerActions
                            t={t}
                            canRegenerate={m === last}
                            rating={ratings.value[m.id] ?? null}
                            copied={copied.value === m.id}
                            commenting={commenting.value === m.id}
                            onCopy={() => copyAnswer(m)}
                            onRegenerate={() => chat.regenerate({ messageId: m.id })}
                            onRate={(r) => rate(m, r)}
                            onComment={(c) => rate(m, "down", c)}
                          />
                        )
                        : m === lastUser
                        ? (
                          <button
                            type="button"
                            class="icon-button edit-button"
                            aria-label={t.edit}
                            title={t.edit}
                            onClick={() => (editing.value = { id: m.id, text: textOf(m, true) })}
                          >
                            <Icon d="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
                          </button>
                        )
                        : null}
                    />
                  )
              )}
              {status.value === "submitted" && last?.role === "user" && (
                <p class="typing" aria-hidden="true">
                  <span></span>
                  <span></span>
                  <span></span>
                </p>
              )}
              {error && (
                <div class="error-banner" role="alert">
                  <span>{errorText(error, t)}</span>
                  <button type="button" class="link-button" onClick={retry}>
                    {t.retry}
                  </button>
                </div>
              )}
              {notice.value && <p class="notice" role="status">{notice.value}</p>}
            </div>
          )}
      </div>
      {!pinned.value && list.length > 0 && (
        <button
          type="button"
          class="jump"
          onClick={() => {
            pinned.value = true;
            scroller.current?.scrollTo({ top: scroller.current.scrollHeight, behavior: "smooth" });
          }}
        >
          {t.jumpToLatest}
        </button>
      )}
      <div class="visually-hidden" aria-live="polite" aria-atomic="true">{announcement.value}</div>
      <form
        class={pickAgent ? "composer composer-agents" : "composer"}
        onSubmit={(e) => {
          e.preventDefault();
          void send(input.value);
        }}
      >
        <label class="visually-hidden" for="composer-input">{t.composerLabel}</label>
        <textarea
          id="composer-input"
          ref={textarea}
          rows={1}
          placeholder={t.composerPlaceholder}
          value={input.value}
          onInput={(e) => (input.value = e.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        {pickAgent && (
          <select
            class="model-picker agent-picker"
            aria-label={t.agentPickerLabel}
            onChange={(e) => (agent.value = e.currentTarget.value || null)}
          >
            {/* `selected` on the options: the server-rendered page shows `?agent=` before hydration. */}
            <option value="" selected={!agent.value}>{t.allAgents}</option>
            {agents.map((a) => (
              <option key={a.id} value={a.id} title={a.description} selected={agent.value === a.id}>
                {a.name}
              </option>
            ))}
          </select>
        )}
        {models.value.length > 1 && (
          <select
            class="model-picker"
            aria-label={t.modelLabel}
            value={model.value ?? undefined}
            onChange={(e) => (model.value = e.currentTarget.value)}
          >
            {models.value.map((m) => {
              const label = m.labels?.[locale] ?? m.label;
              return (
                <option key={m.id} value={m.id} disabled={!m.available}>
                  {m.available ? label : `${label} (${t.unavailable})`}
                </option>
              );
            })}
          </select>
        )}
        {busy.value
          ? (
            <button
              type="button"
              class="stop"
              aria-label={t.stop}
              title={t.stop}
              onClick={() => chat.stop()}
            >
              <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
                <rect x="6" y="6" width="12" height="12" rx="2" fill="currentColor" />
              </svg>
            </button>
          )
          : (
            <button
              type="submit"
              class="send"
              aria-label={t.send}
              title={t.send}
              disabled={!input.value.trim()}
            >
              <Icon d="M4 12h14M12 5l7 7-7 7" size={20} weight={2} />
            </button>
          )}
      </form>
      {versions && (ArtifactPanel
        ? (
          <ArtifactPanel
            key={opened!.id}
            locale={locale}
            versions={versions}
            initialVersion={opened!.version}
            artifactOrigin={artifactOrigin}
            nonce={pageNonce()}
            onClose={closeArtifact}
          />
        )
        : (
          <section class="artifact-panel artifact-panel-loading" role="status">
            <span class="spinner" aria-hidden="true"></span>
            <span>{t.artifactLoading}</span>
          </section>
        ))}
    </div>
  );
}

/** The text of a message; citations dropped unless `keepCitations`. */
function textOf(message: ChatMessage, keepCitations = false): string {
  const text = message.parts.flatMap((p) => p.type === "text" ? [p.text] : []).join("\n\n");
  return keepCitations ? text : text.replace(/\s?\[\d+\]/g, "");
}

function errorText(error: Error, t: ReturnType<typeof catalog>): string {
  if (error instanceof ChatRequestError && error.code === "rate_limited") {
    return format(t.rateLimited, { s: 60 });
  }
  return t.errorGeneric;
}

async function nameChat(id: string): Promise<string | undefined> {
  try {
    const res = await fetch("/api/title", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id }),
    });
    return res.ok ? (await res.json()).title : undefined;
  } catch {
    // A title is a nicety; the chat works without one.
    return undefined;
  }
}
