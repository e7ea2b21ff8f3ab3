/**
 * The chat the widget's frame shows and keeps: it reopens the chat the frame showed last
 * (the frame's URL first, then its partitioned storage, lib/widget/frame_storage.ts) and
 * names each chat shown in both, so the widget continues the conversation on every page.
 */
import { useEffect, useMemo } from "preact/hooks";
import { type Signal, useSignal } from "@preact/signals";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import {
  type FrameStorage,
  frameStorage,
  keepLastChat,
  readLastChat,
  RESUMING_ATTR,
} from "@/lib/widget/frame_storage.ts";
import { chatInFrameUrl, widgetChatPath } from "@/lib/widget/frame_url.ts";

/** The chat on screen: `key` remounts the message list when another one is shown. */
export interface Shown {
  id: string | null;
  messages: ChatMessage[];
  key: number;
}

/** The shown chat and how to change it. */
export interface WidgetChat {
  /** The frame's storage; null when rendered on the server. */
  storage: FrameStorage | null;
  shown: Signal<Shown>;
  /** Shows chat `id` with `messages` (a new chat: null, none) and keeps it. */
  show: (id: string | null, messages?: ChatMessage[]) => void;
  /** Shows chat `id`, or keeps the new chat when it is gone (deleted, expired, another visitor's). */
  open: (id: string) => Promise<void>;
}

/** The widget's shown chat; on mount, reopens the last one (then clears the resuming mark). */
export function useWidgetChat(): WidgetChat {
  const storage = useMemo(() => (typeof window === "undefined" ? null : frameStorage()), []);
  const shown = useSignal<Shown>({ id: null, messages: [], key: 0 });

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

  useEffect(() => {
    // The frame's URL first: a reload of just the frame shows what it showed.
    const last = chatInFrameUrl(location.href) ?? readLastChat(storage);
    const done = () => document.documentElement.removeAttribute(RESUMING_ATTR);
    if (last) void open(last).finally(done);
    else done();
  }, []);

  return { storage, shown, show, open };
}
