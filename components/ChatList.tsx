import type { Messages } from "@/lib/i18n/mod.ts";
import type { ChatSummary } from "@/lib/protocol/chat_summary.ts";
import { Icon } from "./Icon.tsx";

interface ChatListProps {
  t: Messages;
  chats: ChatSummary[];
  /** KV cursor of the next page, or null. */
  cursor: string | null;
  currentId: string | null;
}

/**
 * The visitor's chats: a sidebar on wide screens, a drawer on narrow ones.
 * Plain links and forms; static/chat_list.js only adds confirmation and live updates.
 */
export function ChatList({ t, chats, cursor, currentId }: ChatListProps) {
  return (
    <aside class="chat-list" id="chat-list" aria-label={t.chatsLabel}>
      <div class="chat-list-head">
        <a class="new-chat" href="/">
          <Icon d="M12 5v14M5 12h14" weight={2} />
          {t.newChat}
        </a>
      </div>
      {chats.length === 0
        ? <p class="chat-list-empty">{t.noChats}</p>
        : (
          <ul class="chat-items" data-chat-items>
            {chats.map((c) => (
              <li key={c.id} class={c.id === currentId ? "current" : undefined} data-chat-id={c.id}>
                <a href={`/c/${c.id}`} aria-current={c.id === currentId ? "page" : undefined}>
                  {c.title ?? t.untitled}
                </a>
                <details class="chat-menu">
                  <summary aria-label={`${t.chatActions}: ${c.title ?? t.untitled}`}>⋯</summary>
                  <div class="chat-menu-body">
                    <form method="post" action={`/c/${c.id}/rename`} class="rename-form">
                      <label for={`rename-${c.id}`} class="visually-hidden">{t.renameLabel}</label>
                      <input
                        id={`rename-${c.id}`}
                        name="title"
                        value={c.title ?? ""}
                        maxLength={60}
                        required
                      />
                      <button type="submit">{t.rename}</button>
                    </form>
                    <a class="danger" href={`/c/${c.id}/delete`} data-confirm={t.deleteConfirm}>
                      {t.delete}
                    </a>
                  </div>
                </details>
              </li>
            ))}
          </ul>
        )}
      {cursor && (
        <a class="chat-list-more" href={`?cursor=${encodeURIComponent(cursor)}`}>{t.olderChats}</a>
      )}
      <a class="forget-me" href="/me/delete">{t.deleteAll}</a>
    </aside>
  );
}
