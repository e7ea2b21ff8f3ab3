/**
 * The message list's chat client for its whole life: the `Chat` (made once), what its
 * stream reports (notices, the screen-reader announcement, stopped answers) and naming the
 * chat once the server holds it (address bar, parent island, the chat list's event).
 */
import { useMemo } from "preact/hooks";
import {
  type ReadonlySignal,
  type Signal,
  useComputed,
  useSignal,
  useSignalEffect,
} from "@preact/signals";
import { Chat } from "@/lib/client/chat.ts";
import { textOf } from "@/lib/client/chat_text.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import type { Messages } from "@/lib/i18n/mod.ts";

/** The chat client and what its stream reports. */
export interface ChatClient {
  /** The client; its messages and status are `chat.signals`. */
  chat: Chat<ChatMessage>;
  /** Whether a request is out or an answer streams. */
  busy: ReadonlySignal<boolean>;
  /** A notice under the thread (e.g. the chat could not be saved). */
  notice: Signal<string | null>;
  /** The latest answer, for the polite live region. */
  announcement: Signal<string>;
  /** The ids of answers the visitor stopped. */
  stopped: Signal<ReadonlySet<string>>;
}

/** What `useChatClient` needs besides the chat's first state. */
export interface ChatClientOptions {
  t: Messages;
  /** Fields added to every request (the picked model and agent). */
  body: () => Record<string, unknown>;
  /** The path naming a chat in the address bar. */
  chatPath: (id: string) => string;
  /** Called with the chat's id once the server holds it, and after each answer. */
  onChatSaved?: (id: string) => void;
}

function newChatId(): string {
  return "c" + crypto.randomUUID().replaceAll("-", "").slice(0, 20);
}

/**
 * Makes the island's `Chat` once and follows it (the island resumes a saved chat's answer).
 * `chatId` is null on a new chat (an id is made here).
 */
export function useChatClient(
  chatId: string | null,
  initialMessages: ChatMessage[],
  { t, body, chatPath, onChatSaved }: ChatClientOptions,
): ChatClient {
  const notice = useSignal<string | null>(null);
  const announcement = useSignal("");
  const stopped = useSignal<ReadonlySet<string>>(new Set());

  /** Writes chat `id`'s path to the address bar; false when it was there already. */
  const nameInUrl = (id: string) => {
    const path = chatPath(id);
    if (location.pathname + location.search === path) return false;
    history.replaceState(null, "", path);
    return true;
  };

  const chat = useMemo(() => {
    // A chat reopened from the list was titled by the server when it was saved.
    let untitled = initialMessages.length === 0;
    const chat: Chat<ChatMessage> = new Chat<ChatMessage>({
      id: chatId ?? newChatId(),
      messages: initialMessages,
      body,
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
        // A stopped or broken first answer is saved with its question, so it is titled too:
        // the list would otherwise show "…" for it. A chat that opened with a greeting is
        // titled after the first question that follows it.
        if (untitled) {
          void nameChat(chat.id).then((title) => {
            if (title) untitled = false;
            announce(title ?? undefined);
          });
        } else announce();
      },
    });
    return chat;
  }, []);

  const status = chat.signals.statusSignal;
  const busy = useComputed(() => status.value === "submitted" || status.value === "streaming");

  // Once the answer streams the chat is saved: name it in the URL now, so a reload mid-answer
  // reopens it (and resumes the answer) instead of an empty chat.
  useSignalEffect(() => {
    if (status.value !== "streaming" || !nameInUrl(chat.id)) return;
    onChatSaved?.(chat.id);
  });

  return { chat, busy, notice, announcement, stopped };
}

/**
 * Asks the server to title chat `id` after an answer: the title, null while the visitor has
 * only greeted, undefined when it cannot.
 */
async function nameChat(id: string): Promise<string | null | undefined> {
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
