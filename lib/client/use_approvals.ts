/** Tool approvals in the message list: load the card's code on demand, send the decisions. */
import type { RefObject } from "preact";
import { useEffect } from "preact/hooks";
import { type ReadonlySignal, type Signal, useSignal, useSignalEffect } from "@preact/signals";
import type { Chat } from "@/lib/client/chat.ts";
import { APPROVAL_EVENT, type ApprovalDecision, hasApprovalPart } from "@/lib/client/approval.ts";
import { approvalCard, loadApprovalCard } from "@/lib/client/approval_slot.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

/**
 * Loads the approval card once a message holds an approval (never on a first visit) and
 * sends the decisions the cards dispatch under `root`; `onError` runs when sending fails.
 * Returns a signal that flips once the card's code has loaded (to re-render its messages).
 */
export function useApprovals(
  chat: Chat<ChatMessage>,
  messages: ReadonlySignal<ChatMessage[]>,
  root: RefObject<HTMLElement | null>,
  onError: () => void,
): Signal<boolean> {
  const cardLoaded = useSignal(approvalCard() != null);

  useSignalEffect(() => {
    if (cardLoaded.value || !messages.value.some(hasApprovalPart)) return;
    void loadApprovalCard().then(() => (cardLoaded.value = true));
  });

  // Cards send the visitor's decision as a DOM event (their props stay serialisable).
  useEffect(() => {
    const el = root.current;
    const onDecision = (e: Event) => {
      const decision = (e as CustomEvent<ApprovalDecision>).detail;
      chat.addToolApprovalResponse(decision).catch(onError);
    };
    el?.addEventListener(APPROVAL_EVENT, onDecision);
    return () => el?.removeEventListener(APPROVAL_EVENT, onDecision);
  }, []);

  return cardLoaded;
}
