/**
 * The agents as the page sees them: id, name and description only (a `ReadyAgent`
 * holds resolved secret headers; those never leave the server). Browser-safe.
 */
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { localize, type LocalizedText } from "@/lib/i18n/localized.ts";
import type { Locale } from "@/lib/i18n/mod.ts";

/** One configured agent, as the picker and the message labels show it. */
export interface AgentChoice {
  id: string;
  name: string;
  description: string;
}

/** The visitor-facing part of each agent, in `locale`: nothing else is copied. */
export function agentChoices(
  agents: readonly { agent: { id: string; name: LocalizedText; description: LocalizedText } }[],
  locale: Locale,
): AgentChoice[] {
  return agents.map(({ agent: { id, name, description } }) => ({
    id,
    name: localize(name, locale),
    description: localize(description, locale),
  }));
}

/** `id` if it names one of `agents`, else null (an unknown `?agent=` is ignored). */
export function knownAgent(
  agents: readonly AgentChoice[],
  id: string | null | undefined,
): string | null {
  return id && agents.some((a) => a.id === id) ? id : null;
}

/** The agent a saved chat uses: the one its last answer names, if it still exists. */
export function chatAgent(agents: readonly AgentChoice[], messages: readonly ChatMessage[]) {
  const answer = messages.findLast((m) => m.role === "assistant");
  return knownAgent(agents, answer?.metadata?.agentId);
}
