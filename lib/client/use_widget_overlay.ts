/**
 * The widget's overlays over the chat (previous conversations, delete my data, use with
 * your AI tool): which one
 * is open, the chat list it loads, its notice, and focus (the overlay's heading on open,
 * the button that opened it on close).
 */
import { useEffect, useRef } from "preact/hooks";
import { type Signal, useSignal } from "@preact/signals";
import type { ChatSummary } from "@/lib/protocol/chat_summary.ts";

/** An overlay of the widget. */
export type OverlayName = "chats" | "delete" | "ai";

/** The chat list of the "chats" overlay, or where its loading is. */
export type ChatsState = ChatSummary[] | "loading" | "failed";

/** The overlay state and its handlers. */
export interface WidgetOverlay {
  overlay: Signal<OverlayName | null>;
  chats: Signal<ChatsState>;
  /** A notice (over the chat, or in the delete overlay). */
  notice: Signal<string | null>;
  /** Opens overlay `which` from the button of event `e` (focus returns there on close). */
  openOverlay: (which: OverlayName, e: Event) => void;
  closeOverlay: () => void;
}

/** The widget's overlay state; the "chats" overlay loads the list (GET /api/chats) each time. */
export function useWidgetOverlay(): WidgetOverlay {
  const overlay = useSignal<OverlayName | null>(null);
  const chats = useSignal<ChatsState>("loading");
  const notice = useSignal<string | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  // An opened overlay takes focus on its heading (Escape or "back" return it to the opener).
  const which = overlay.value;
  useEffect(() => {
    if (which) document.getElementById("widget-overlay-title")?.focus();
  }, [which]);

  function openOverlay(which: OverlayName, e: Event) {
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

  return { overlay, chats, notice, openOverlay, closeOverlay };
}
