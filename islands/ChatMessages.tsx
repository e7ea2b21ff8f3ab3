import { Welcome } from "@/components/chat/Welcome.tsx";
import { Thread } from "@/components/chat/Thread.tsx";
import { Composer } from "@/components/chat/Composer.tsx";
import { ArtifactSlot } from "@/components/chat/ArtifactSlot.tsx";
import { collectArtifacts } from "@/lib/artifacts/versions.ts";
import { useConversation } from "@/lib/client/use_conversation.ts";
import type { ChatMessagesProps } from "@/lib/client/chat_messages_props.ts";
import { setApprovalCardLoader } from "@/lib/client/approval_slot.ts";
import { setArtifactPanelLoader } from "@/lib/client/artifact_slot.ts";

// The approval card and the artifact panel are lazy chunks of their own, loaded when an
// answer holds a card or the visitor opens an artifact.
setApprovalCardLoader(() => import("@/lib/client/approval_card_lazy.ts"));
setArtifactPanelLoader(async () =>
  (await import("@/components/artifacts/ArtifactPanel.tsx")).ArtifactPanel
);

/**
 * The conversation: welcome, suggested questions, messages, the composer and the model picker.
 * The state is lib/client/use_conversation.ts (a hook per concern); the parts are in
 * components/chat/.
 */
export default function ChatMessages(props: ChatMessagesProps) {
  const c = useConversation(props);
  const { t, refs, scroll, artifact } = c;
  // Flips once the approval card's code has loaded, to re-render the messages holding one.
  void c.display.cardLoaded.value;
  const list = c.display.view.value;
  // Only a new chat picks its agent; once it has begun, it keeps the one it was sent with.
  const pickAgent = c.choices.agents.length > 1 && !props.chatId && list.length === 0;
  const opened = artifact.open.value;
  const versions = opened ? collectArtifacts(list).get(opened.id) : undefined;

  return (
    <div class={versions ? "conversation has-artifact" : "conversation"} ref={refs.root}>
      <div class="messages" ref={refs.scroller} onScroll={scroll.onScroll}>
        {list.length === 0
          ? <Welcome t={t} suggestions={props.suggestions} onSend={c.composer.send} />
          : <Thread c={c} list={list} />}
      </div>
      {!scroll.pinned.value && list.length > 0 && (
        <button type="button" class="jump" onClick={scroll.jumpToLatest}>{t.jumpToLatest}</button>
      )}
      <div class="visually-hidden" aria-live="polite" aria-atomic="true">
        {c.client.announcement.value}
      </div>
      <Composer c={c} pickAgent={pickAgent} />
      {versions && (
        <ArtifactSlot
          t={t}
          locale={props.locale}
          Panel={artifact.Panel.value}
          opened={opened!}
          versions={versions}
          artifactOrigin={props.artifactOrigin ?? null}
          onClose={artifact.close}
        />
      )}
    </div>
  );
}
