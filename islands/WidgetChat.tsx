import ChatMessages from "@/islands/ChatMessages.tsx";
import type { AgentChoice } from "@/lib/client/agents.ts";
import { WidgetBar } from "@/components/widget/WidgetBar.tsx";
import { WidgetOverlay } from "@/components/widget/WidgetOverlay.tsx";
import { type Locale, messages as catalog } from "@/lib/i18n/mod.ts";
import { widgetMessages } from "@/lib/i18n/widget.ts";
import { widgetFrameMessages } from "@/lib/i18n/widget_frame.ts";
import { keepLastChat } from "@/lib/widget/frame_storage.ts";
import { widgetChatPath } from "@/lib/widget/frame_url.ts";
import { useWidgetChat } from "@/lib/client/use_widget_chat.ts";
import { useWidgetOverlay } from "@/lib/client/use_widget_overlay.ts";

/** Props of the widget's chat; all serialisable. */
export interface WidgetChatProps {
  locale: Locale;
  siteName: string;
  suggestions: string[];
  agents: AgentChoice[];
  /** The agent of a new chat (the loader's `data-agent`), already checked. */
  agent: string | null;
  /** The public URL of the site's /mcp, or null when MCP_ENABLED is false. */
  mcpUrl: string | null;
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
  { locale, siteName, suggestions, agents, agent, mcpUrl }: WidgetChatProps,
) {
  const t = catalog(locale);
  const w = { ...widgetMessages(locale), ...widgetFrameMessages(locale) };
  const { storage, shown, show, open } = useWidgetChat();
  const o = useWidgetOverlay();
  const { overlay, notice } = o;

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
      <WidgetBar
        siteName={siteName}
        t={t}
        w={w}
        locale={locale}
        mcpUrl={mcpUrl}
        open={overlay.value}
        onNewChat={newChat}
        onOverlay={o.openOverlay}
      />
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
          <WidgetOverlay
            t={t}
            w={w}
            locale={locale}
            mcpUrl={mcpUrl}
            state={o}
            currentId={current.id}
            onPick={(id) => {
              overlay.value = null;
              void open(id);
            }}
            onDelete={deleteData}
          />
        )}
      </main>
    </>
  );
}
