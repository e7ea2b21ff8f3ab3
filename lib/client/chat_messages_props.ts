/** The props of the message list island (islands/ChatMessages.tsx). */
import type { ConversationOptions } from "@/lib/client/use_conversation.ts";

/** Props of the message list; all serialisable. */
export interface ChatMessagesProps extends ConversationOptions {
  suggestions: string[];
  /** The separate origin artifact previews are served from (`ARTIFACT_ORIGIN`); null: `srcdoc`. */
  artifactOrigin?: string | null;
}
