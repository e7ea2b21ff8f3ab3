import type { Locale, Messages } from "@/lib/i18n/mod.ts";
import { AiToolPanel } from "./AiToolPanel.tsx";
import type { WidgetMessages } from "@/lib/i18n/widget.ts";
import type { widgetFrameMessages } from "@/lib/i18n/widget_frame.ts";
import type { ChatsState, WidgetOverlay as Overlay } from "@/lib/client/use_widget_overlay.ts";

/** The widget's own texts (the loader's and the frame's). */
export type WidgetTexts = WidgetMessages & ReturnType<typeof widgetFrameMessages>;

/**
 * The open overlay over the chat: previous conversations (a pick opens one), the AI tool
 * snippets or the delete confirmation, and "back to the chat". Escape closes it (not the
 * whole widget).
 */
export function WidgetOverlay(
  { t, w, locale, mcpUrl, state, currentId, onPick, onDelete }: {
    t: Messages;
    w: WidgetTexts;
    locale: Locale;
    mcpUrl: string | null;
    state: Overlay;
    currentId: string | null;
    onPick: (id: string) => void;
    onDelete: () => void;
  },
) {
  const { notice, closeOverlay } = state;
  return (
    <section
      class="widget-overlay"
      aria-labelledby="widget-overlay-title"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.preventDefault(); // the frame script would close the whole widget
        closeOverlay();
      }}
    >
      {state.overlay.value === "ai" && mcpUrl
        ? <AiToolPanel mcpUrl={mcpUrl} locale={locale} />
        : state.overlay.value === "chats"
        ? (
          <ChatsOverlay
            title={t.chatsLabel}
            chats={state.chats.value}
            currentId={currentId}
            texts={{
              empty: t.noChats,
              untitled: t.untitled,
              failed: w.chatsFailed,
              loading: t.loadingJs,
            }}
            onPick={onPick}
          />
        )
        : (
          <div class="widget-confirm">
            <h2 id="widget-overlay-title" tabIndex={-1}>{t.deleteAllTitle}</h2>
            <p>{t.deleteAllBody}</p>
            {notice.value && <p class="widget-error" role="alert">{notice.value}</p>}
            <div class="widget-confirm-actions">
              <button type="button" onClick={closeOverlay}>{t.cancel}</button>
              <button type="button" class="widget-danger" onClick={onDelete}>
                {t.deleteAllConfirm}
              </button>
            </div>
          </div>
        )}
      <button type="button" class="link-button widget-back" onClick={closeOverlay}>
        {w.backToChat}
      </button>
    </section>
  );
}

function ChatsOverlay({ title, chats, currentId, texts, onPick }: {
  title: string;
  chats: ChatsState;
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
