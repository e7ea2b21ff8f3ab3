import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import type { Locale } from "@/lib/i18n/mod.ts";
import type { AgentChoice } from "@/components/chat/agents.ts";
import { Welcome } from "@/components/chat/Welcome.tsx";
import { Thread } from "@/components/chat/Thread.tsx";
import { Composer } from "@/components/chat/Composer.tsx";
import { ArtifactSlot } from "@/components/chat/ArtifactSlot.tsx";
import { collectArtifacts } from "@/lib/artifacts/versions.ts";
import { useConversation } from "@/lib/client/use_conversation.ts";

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

/**
 * The conversation: welcome, suggested questions, messages, the composer and the model picker.
 * The state is lib/client/use_conversation.ts (a hook per concern); the parts are in
 * components/chat/.
 */
export default function ChatMessages(props: ChatMessagesProps) {
  const c = useConversation(props);
  const { t } = c;
  const [openArtifact, Panel, , closeArtifact] = c.artifact;
  // Flips once the approval card's code has loaded, to re-render the messages holding one.
  void c.cardLoaded.value;
  const list = c.view.value;
  // Only a new chat picks its agent; once it has begun, it keeps the one it was sent with.
  const pickAgent = c.agents.length > 1 && !props.chatId && list.length === 0;
  const opened = openArtifact.value;
  const versions = opened ? collectArtifacts(list).get(opened.id) : undefined;

  return (
    <div class={versions ? "conversation has-artifact" : "conversation"} ref={c.root}>
      <div class="messages" ref={c.scroller} onScroll={c.onScroll}>
        {list.length === 0
          ? <Welcome t={t} suggestions={props.suggestions} onSend={c.send} />
          : <Thread c={c} list={list} />}
      </div>
      {!c.pinned.value && list.length > 0 && (
        <button type="button" class="jump" onClick={c.jumpToLatest}>{t.jumpToLatest}</button>
      )}
      <div class="visually-hidden" aria-live="polite" aria-atomic="true">
        {c.announcement.value}
      </div>
      <Composer c={c} pickAgent={pickAgent} />
      {versions && (
        <ArtifactSlot
          t={t}
          locale={props.locale}
          Panel={Panel.value}
          opened={opened!}
          versions={versions}
          artifactOrigin={props.artifactOrigin ?? null}
          onClose={closeArtifact}
        />
      )}
    </div>
  );
}
