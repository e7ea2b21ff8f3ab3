/** Sending from the composer: the question, Enter to send, Escape to stop, retry after a failure. */
import type { RefObject } from "preact";
import type { ReadonlySignal, Signal } from "@preact/signals";
import type { Chat } from "@/lib/client/chat.ts";
import { textOf } from "@/lib/client/chat_text.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

/**
 * The composer's actions: `send(text)` (trimmed; nothing while an answer is under way), its
 * keys (Enter sends, Shift+Enter is a new line, Escape stops the answer) and `retry` after a
 * failure (resend approvals, the question, or redo the answer).
 */
export interface ComposerActions {
  send: (text: string) => Promise<void>;
  onKeyDown: (e: KeyboardEvent) => void;
  retry: () => Promise<void>;
}

/**
 * The composer's actions for `chat`. `prepare` runs with each question before it is sent
 * (clear notices, follow the answer, start loading the renderer). Keyboard focus stays in
 * the composer's `textarea` (a suggestion button disappears when sent; Esc stops from there).
 */
export function useComposer(
  chat: Chat<ChatMessage>,
  busy: ReadonlySignal<boolean>,
  input: Signal<string>,
  textarea: RefObject<HTMLTextAreaElement | null>,
  prepare: (question: string) => void,
): ComposerActions {
  async function send(text: string) {
    const q = text.trim();
    if (!q || busy.value) return;
    input.value = "";
    prepare(q);
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

  return { send, onKeyDown, retry };
}
