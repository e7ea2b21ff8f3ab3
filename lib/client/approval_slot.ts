/**
 * Where the message list finds the approval card without importing it: the
 * island module islands/ToolApproval.tsx registers itself here when it is
 * evaluated (on the server at start, in the browser when a server-rendered card
 * made the page import it, or when {@linkcode loadApprovalCard} pulls it in with the
 * loader the message list island sets). So the first visit's bundle never holds the card,
 * and this module imports nothing above it.
 */
import type { ComponentType } from "preact";
import type { Locale } from "@/lib/i18n/mod.ts";
import type { ApprovalDescriptorView } from "./approval.ts";

/** Props of the card; all serialisable (the tool part's fields). */
export interface ToolApprovalProps {
  locale: Locale;
  toolName: string;
  /** The tool part's state. */
  state: string;
  approval: {
    id: string;
    approved?: boolean;
    reason?: string;
    descriptor?: ApprovalDescriptorView;
  };
  input?: unknown;
  output?: unknown;
  errorText?: string;
}

let card: ComponentType<ToolApprovalProps> | null = null;
let loader: (() => Promise<unknown>) | null = null;

/** Called by the island module. */
export function registerApprovalCard(component: ComponentType<ToolApprovalProps>): void {
  card = component;
}

/** The card component, or null while it has not loaded. */
export function approvalCard(): ComponentType<ToolApprovalProps> | null {
  return card;
}

/**
 * Sets how the card's code loads: a dynamic import of lib/client/approval_card_lazy.ts, made
 * by the island above this module. Not the island file itself: the build renames entry files,
 * so a dynamic import must target a module of its own (which re-exports the island).
 */
export function setApprovalCardLoader(load: () => Promise<unknown>): void {
  loader = load;
}

/** Loads the card's code (once) and returns the component. */
export async function loadApprovalCard(): Promise<ComponentType<ToolApprovalProps>> {
  if (!card) {
    if (!loader) {
      throw new Error("No approval card loader: islands/ChatMessages.tsx sets it when loaded.");
    }
    await loader();
  }
  if (!card) throw new Error("The approval card's module did not register the card.");
  return card;
}
