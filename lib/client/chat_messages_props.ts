/** The props of the message list island (islands/ChatMessages.tsx), which its hooks read too. */
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import type { Locale } from "@/lib/i18n/mod.ts";
import type { AgentChoice } from "@/lib/client/agents.ts";

/** Props of the message list; all serialisable. */
export interface ChatMessagesProps {
  locale: Locale;
  suggestions: string[];
  /** The chat shown; null on a new chat (an id is made at the first message). */
  chatId: string | null;
  initialMessages: ChatMessage[];
  /** Server-rendered markdown of the initial messages (see components/chat/prerender.ts). */
  prerendered?: Record<string, string>;
  /** The configured agents (id, name, description); a picker shows when there are several. */
  agents?: AgentChoice[];
  /** The agent preselected on a new chat (`?agent=`); ignored unless it is one of `agents`. */
  agent?: string | null;
  /** The separate origin artifact previews are served from (`ARTIFACT_ORIGIN`); null: `srcdoc`. */
  artifactOrigin?: string | null;
  /**
   * Called with the chat's id once the server holds it (its answer streams) and after each
   * answer. Only for a parent island (the widget keeps the id); a page cannot pass a function.
   */
  onChatSaved?: (id: string) => void;
  /**
   * The path (and query) naming chat `id`, written to the address bar once it is saved
   * (default `/c/<id>`). Only for a parent island: the widget's frame keeps a /widget URL.
   */
  chatPath?: (id: string) => string;
}
