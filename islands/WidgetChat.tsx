import { useEffect, useMemo, useRef } from "preact/hooks";
import { useSignal } from "@preact/signals";
import ChatMessages from "@/islands/ChatMessages.tsx";
import type { AgentChoice } from "@/components/chat/agents.ts";
import { Icon } from "@/components/Icon.tsx";
import type { ChatMessage } from "@/lib/chat/types.ts";
import type { ChatSummary } from "@/lib/store/chats.ts";
import { type Locale, messages as catalog } from "@/lib/i18n/mod.ts";
import { widgetMessages } from "@/lib/i18n/widget.ts";
import { widgetFrameMessages } from "@/lib/i18n/widget_frame.ts";
import {
  frameStorage,
  keepLastChat,
  readLastChat,
  RESUMING_ATTR,
} from "@/lib/widget/frame_storage.ts";
import { chatInFrameUrl, widgetChatPath } from "@/lib/widget/frame_url.ts";

/** Props of the widget's chat; all serialisable. */
export interface WidgetChatProps {
  locale: Locale;
  siteName: string;
  suggestions: string[];
  agents: AgentChoice[];
  /** The agent of a new chat (the loader's `data-agent`), already checked. */
  agent: string | null;
}

/** The chat on screen: `key` remounts the message list when another one is shown. */
interface Shown {
  id: string | null;
  messages: ChatMessage[];
  key: number;
}

/**
 * /widget's chat: the bar (new conversation, previous conversations, delete my data,
 * close) above the message list. It reopens the chat the frame showed last (kept in the
 * frame's partitioned storage, lib/widget/frame_storage.ts), so the widget continues the
 * conversation on every page of the host site. The frame's URL names the chat too
 * (`/widget?chat=<id>`, lib/widget/frame_url.ts), so reloading just the frame reopens it.
 * API calls carry the visitor token
 * (static/widget_frame.js wraps fetch); nothing here ever reaches the host page.
 */
export default function WidgetChat(
  { locale, siteName, suggestions, agents, agent }: WidgetChatProps,
) {
  const t = catalog(locale);
  const w = { ...widgetMessages(locale), ...widgetFrameMessages(locale) };
  const storage = useMemo(() => (typeof window === "undefined" ? null : frameStorage()), []);
  const shown = useSignal<Shown>({ id: null, messages: [], key: 0 });
  const overlay = useSignal<"chats" | "delete" | null>(null);
  const chats = useSignal<ChatSummary[] | "loading" | "failed">("loading");
  const notice = useSignal<string | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  /** Keeps `id` as the chat to reopen, in the frame's storage and its URL. */
  const keep = (id: string | null) => {
    keepLastChat(storage, id);
    const path = widgetChatPath(location.href, id);
    if (location.pathname + location.search !== path) history.replaceState(null, "", path);
  };

  const show = (id: string | null, messages: ChatMessage[] = []) => {
    keep(id);
    shown.value = { id, messages, key: shown.peek().key + 1 };
  };

  /** Shows chat `id`, or a new chat when it is gone (deleted, expired, another visitor's). */
  async function open(id: string) {
    try {
      const res = await fetch(`/api/chats/${encodeURIComponent(id)}`);
      if (res.ok) {
        const body = await res.json() as { messages: ChatMessage[] };
        return show(id, body.messages);
      }
      await res.text();
      if (res.status === 404) keep(null);
    } catch { /* offline: the new chat stays */ }
  }

  // An opened overlay takes focus on its heading (Escape or "back" return it to the opener).
  const which = overlay.value;
  useEffect(() => {
    if (which) document.getElementById("widget-overlay-title")?.focus();
  }, [which]);

  useEffect(() => {
    // The frame's URL first: a reload of just the frame shows what it showed.
    const last = chatInFrameUrl(location.href) ?? readLastChat(storage);
    const done = () => document.documentElement.removeAttribute(RESUMING_ATTR);
    if (last) void open(last).finally(done);
    else done();
  }, []);

  function openOverlay(which: "chats" | "delete", e: Event) {
    opener.current = e.currentTarget as HTMLElement;
    notice.value = null;
    overlay.value = which;
    if (which !== "chats") return;
    chats.value = "loading";
    fetch("/api/chats?limit=30").then((r) => r.ok ? r.json() : Promise.reject())
      .then((body: { chats: ChatSummary[] }) => (chats.value = body.chats))
      .catch(() => (chats.value = "failed"));
  }

  function closeOverlay() {
    overlay.value = null;
    requestAnimationFrame(() => opener.current?.focus());
  }

  function newChat() {
    overlay.value = null;
    notice.value = null;
    show(null);
    requestAnimationFrame(() => document.getElementById("composer-input")?.focus());
  }

  async function deleteData() {
    const res = await fetch("/api/me", { method: "DELETE" }).catch(() => null);
    // Read to the end (a cancelled body shows as an aborted request).
    const done = await res?.text().then(() => res.ok, () => false);
    if (!done) {
      notice.value = w.deleteFailed;
      return;
    }
    // The token fetch forgot the token: the next call starts a new visitor.
    show(null);
    overlay.value = null;
    notice.value = w.dataDeleted;
  }

  const current = shown.value;
  return (
    <>
      <header class="widget-bar">
        <span class="widget-name">{siteName}</span>
        <div class="widget-actions">
          <BarButton label={t.newChat} icon="M12 5v14M5 12h14" onClick={newChat} />
          <BarButton
            label={t.openChats}
            icon="M4 6h16M4 12h16M4 18h10"
            expanded={overlay.value === "chats"}
            onClick={(e) => openOverlay("chats", e)}
          />
          <BarButton
            label={t.deleteAll}
            icon="M5 7h14M10 7V5h4v2M7 7l1 12h8l1-12"
            expanded={overlay.value === "delete"}
            onClick={(e) => openOverlay("delete", e)}
          />
          <button type="button" class="icon-button" data-widget-close aria-label={w.widgetClose}>
            <Icon d="M6 6l12 12M18 6L6 18" size={20} weight={2} />
          </button>
        </div>
      </header>
      <main class="chat widget-main" id="main">
        {notice.value && !overlay.value && <p class="widget-notice" role="status">{notice.value}
        </p>}
        <ChatMessages
          key={current.key}
          locale={locale}
          suggestions={suggestions}
          chatId={current.id}
          initialMessages={current.messages}
          agents={agents}
          agent={agent}
          onChatSaved={(id) => keepLastChat(storage, id)}
          chatPath={(id) => widgetChatPath(location.href, id)}
        />
        {overlay.value && (
          <section
            class="widget-overlay"
            aria-labelledby="widget-overlay-title"
            onKeyDown={(e) => {
              if (e.key !== "Escape") return;
              e.preventDefault(); // the frame script would close the whole widget
              closeOverlay();
            }}
          >
            {overlay.value === "chats"
              ? (
                <ChatsOverlay
                  title={t.chatsLabel}
                  chats={chats.value}
                  currentId={current.id}
                  texts={{
                    empty: t.noChats,
                    untitled: t.untitled,
                    failed: w.chatsFailed,
                    loading: t.loadingJs,
                  }}
                  onPick={(id) => {
                    overlay.value = null;
                    void open(id);
                  }}
                />
              )
              : (
                <div class="widget-confirm">
                  <h2 id="widget-overlay-title" tabIndex={-1}>{t.deleteAllTitle}</h2>
                  <p>{t.deleteAllBody}</p>
                  {notice.value && <p class="widget-error" role="alert">{notice.value}</p>}
                  <div class="widget-confirm-actions">
                    <button type="button" onClick={closeOverlay}>{t.cancel}</button>
                    <button type="button" class="widget-danger" onClick={deleteData}>
                      {t.deleteAllConfirm}
                    </button>
                  </div>
                </div>
              )}
            <button type="button" class="link-button widget-back" onClick={closeOverlay}>
              {w.backToChat}
            </button>
          </section>
        )}
      </main>
    </>
  );
}

function BarButton({ label, icon, expanded, onClick }: {
  label: string;
  icon: string;
  expanded?: boolean;
  onClick: (e: Event) => void;
}) {
  return (
    <button
      type="button"
      class="icon-button"
      aria-label={label}
      title={label}
      aria-expanded={expanded}
      onClick={onClick}
    >
      <Icon d={icon} size={20} />
    </button>
  );
}

function ChatsOverlay({ title, chats, currentId, texts, onPick }: {
  title: string;
  chats: ChatSummary[] | "loading" | "failed";
  currentId: string | null;
  texts: { empty: string; untitled: string; failed: string; loading: string };
  onPick: (id: string) => void;
}) {
  return (
    <div class="widget-chats">
      <h2 id="widget-overlay-title" tabIndex={-1}>{title}</h2>
      {chats === "loading"
        ? <p role="status">{texts.loading}</p>
        : chats === "failed"
        ? <p class="widget-error" role="alert">{texts.failed}</p>
        : chats.length === 0
        ? <p class="chat-list-empty">{texts.empty}</p>
        : (
          <ul class="widget-chat-items">
            {chats.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  data-chat-id={c.id}
                  aria-current={c.id === currentId ? "true" : undefined}
                  onClick={() => onPick(c.id)}
                >
                  {c.title ?? texts.untitled}
                </button>
              </li>
            ))}
          </ul>
        )}
    </div>
  );
}
