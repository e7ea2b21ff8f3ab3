import { useEffect, useMemo, useRef } from "preact/hooks";
import { useComputed, useSignal, useSignalEffect } from "@preact/signals";
import { DefaultChatTransport } from "ai";
import { Chat } from "@/lib/client/chat.ts";
import type { RenderMarkdown } from "@/lib/client/markdown.ts";
import type { ChatMessage } from "@/lib/chat/types.ts";
import { format, type Locale, messages as catalog } from "@/lib/i18n/mod.ts";
import { Message } from "@/components/chat/Message.tsx";

/** Props of the message list; all serialisable. */
export interface ChatMessagesProps {
  locale: Locale;
  suggestions: string[];
  /** The chat shown; null on a new chat (an id is made at the first message). */
  chatId: string | null;
  initialMessages: ChatMessage[];
  /** Server-rendered markdown of the initial messages (see components/chat/prerender.ts). */
  prerendered?: Record<string, string>;
}

interface ModelOption {
  id: string;
  label: string;
  available: boolean;
}

function newChatId(): string {
  return "c" + crypto.randomUUID().replaceAll("-", "").slice(0, 20);
}

/** The conversation: welcome, suggested questions, messages, the composer and the model picker. */
export default function ChatMessages(
  { locale, suggestions, chatId, initialMessages, prerendered = {} }: ChatMessagesProps,
) {
  const t = catalog(locale);
  const root = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const input = useSignal("");
  const models = useSignal<ModelOption[]>([]);
  const model = useSignal<string | null>(null);
  const render = useSignal<RenderMarkdown | null>(null);
  const notice = useSignal<string | null>(null);
  const announcement = useSignal("");
  const pinned = useSignal(true);
  const stopped = useSignal<ReadonlySet<string>>(new Set());

  const chat = useMemo(() => {
    const id = chatId ?? newChatId();
    return new Chat<ChatMessage>({
      id,
      messages: initialMessages,
      transport: new DefaultChatTransport({
        api: "/api/chat",
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
          body: {
            id,
            trigger,
            messageId,
            model: model.value ?? undefined,
            message: trigger === "submit-message" ? messages.at(-1) : undefined,
          },
        }),
      }),
      onData: (part) => {
        if (part.type === "data-notice") notice.value = t.saveFailed;
      },
      onFinish: ({ message, isAbort, isError }) => {
        // The server marks the saved answer; the stream was cut, so mark it here as well.
        if (isAbort && message.role === "assistant") {
          stopped.value = new Set([...stopped.value, message.id]);
        }
        if (!isError) announcement.value = textOf(message).slice(0, 500) || t.interrupted;
        if (location.pathname !== `/c/${chat.id}`) history.replaceState(null, "", `/c/${chat.id}`);
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

  useEffect(() => {
    root.current?.setAttribute("data-hydrated", "true");
    fetch("/api/models").then((r) => r.ok ? r.json() : null).then((data) => {
      if (!data) return;
      models.value = data.models;
      model.value ??= data.defaultModel;
    }).catch(() => {});
  }, []);

  // Markdown loads on demand: the first visit to an empty chat does not pay for it.
  useSignalEffect(() => {
    if (render.value || !messages.value.some((m) => m.role === "assistant")) return;
    import("@/lib/client/markdown.ts").then((
      m,
    ) => (render.value = m.createMarkdown(locale === "en" ? "Source" : "Fonte")));
  });

  // Keep the newest message in view unless the visitor scrolled up.
  useSignalEffect(() => {
    void messages.value;
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

  const error = chat.signals.errorSignal.value;
  const list = messages.value;
  const last = list.at(-1);

  return (
    <div class="conversation" ref={root}>
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
            <div class="thread" role="log" aria-busy={busy.value}>
              {list.map((m) => (
                <Message
                  key={m.id}
                  message={m}
                  t={t}
                  render={render.value}
                  prerendered={prerendered}
                  interrupted={stopped.value.has(m.id)}
                  streaming={busy.value && m === last && m.role === "assistant"}
                />
              ))}
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
                  <button type="button" class="link-button" onClick={() => chat.regenerate()}>
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
        class="composer"
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
        {models.value.length > 1 && (
          <select
            class="model-picker"
            aria-label={t.modelLabel}
            value={model.value ?? undefined}
            onChange={(e) => (model.value = e.currentTarget.value)}
          >
            {models.value.map((m) => (
              <option key={m.id} value={m.id} disabled={!m.available}>
                {m.available ? m.label : `${m.label} (${t.unavailable})`}
              </option>
            ))}
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
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                <path
                  d="M4 12h14M12 5l7 7-7 7"
                  fill="none"
                  stroke="currentColor"
                  stroke-width="2"
                  stroke-linecap="round"
                />
              </svg>
            </button>
          )}
      </form>
    </div>
  );
}

function textOf(message: ChatMessage): string {
  return message.parts.flatMap((p) => p.type === "text" ? [p.text] : []).join(" ").replace(
    /\[\d+\]/g,
    "",
  );
}

function errorText(error: Error, t: ReturnType<typeof catalog>): string {
  try {
    const body = JSON.parse(error.message) as { error?: { code?: string; message?: string } };
    if (body.error?.code === "rate_limited") return format(t.rateLimited, { s: 60 });
  } catch {
    // Not a JSON error body: a network or stream error.
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
