import type { Messages } from "@/lib/i18n/mod.ts";
import type { WidgetTexts } from "./WidgetOverlay.tsx";
import type { OverlayName } from "@/lib/client/use_widget_overlay.ts";
import { Icon } from "@/components/Icon.tsx";
import { aiToolLabels } from "@/components/AiToolSnippets.tsx";
import type { Locale } from "@/lib/i18n/mod.ts";

/**
 * The widget's bar: the site's name, then new conversation, previous conversations, use
 * with your AI tool (only when the site's MCP server is on), delete my data (these three
 * open an overlay; `open` is the one open) and close (the frame script's).
 */
export function WidgetBar(
  { siteName, t, w, locale, mcpUrl, open, onNewChat, onOverlay }: {
    siteName: string;
    t: Messages;
    w: WidgetTexts;
    locale: Locale;
    /** The public URL of /mcp, or null when MCP_ENABLED is false (no button then). */
    mcpUrl: string | null;
    open: OverlayName | null;
    onNewChat: () => void;
    onOverlay: (which: OverlayName, e: Event) => void;
  },
) {
  return (
    <header class="widget-bar">
      <span class="widget-name">{siteName}</span>
      <div class="widget-actions">
        <BarButton label={t.newChat} icon="M12 5v14M5 12h14" onClick={onNewChat} />
        <BarButton
          label={t.openChats}
          icon="M4 6h16M4 12h16M4 18h10"
          expanded={open === "chats"}
          onClick={(e) => onOverlay("chats", e)}
        />
        {mcpUrl && (
          <BarButton
            label={aiToolLabels(locale).action}
            icon="M9 3v5M15 3v5M6 8h12v3a6 6 0 0 1-12 0zM12 17v4"
            expanded={open === "ai"}
            onClick={(e) => onOverlay("ai", e)}
          />
        )}
        <BarButton
          label={t.deleteAll}
          icon="M5 7h14M10 7V5h4v2M7 7l1 12h8l1-12"
          expanded={open === "delete"}
          onClick={(e) => onOverlay("delete", e)}
        />
        <button type="button" class="icon-button" data-widget-close aria-label={w.widgetClose}>
          <Icon d="M6 6l12 12M18 6L6 18" size={20} weight={2} />
        </button>
      </div>
    </header>
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
      aria-expanded={expanded === undefined ? undefined : expanded ? "true" : "false"}
      onClick={onClick}
    >
      <Icon d={icon} size={20} />
    </button>
  );
}
