/**
 * Where the message list finds the approval card without importing it: the
 * island module islands/ToolApproval.tsx registers itself here when it is
 * evaluated (on the server at start, in the browser when a server-rendered card
 * made the page import it, or when {@linkcode loadApprovalCard} pulls it in).
 * So the first visit's bundle never holds the card.
 */
import type { ComponentType } from "preact";
import type { ToolApprovalProps } from "@/islands/ToolApproval.tsx";

let card: ComponentType<ToolApprovalProps> | null = null;

/** Called by the island module. */
export function registerApprovalCard(component: ComponentType<ToolApprovalProps>): void {
  card = component;
}

/** The card component, or null while it has not loaded. */
export function approvalCard(): ComponentType<ToolApprovalProps> | null {
  return card;
}

/** Loads the card's code (once) and returns the component. */
export async function loadApprovalCard(): Promise<ComponentType<ToolApprovalProps>> {
  // Not the island file itself: the build renames entry files, so a dynamic import
  // must target a module of its own (which re-exports the island).
  if (!card) await import("./approval_card_lazy.ts");
  return card!;
}
