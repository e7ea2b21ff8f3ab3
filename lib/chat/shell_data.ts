/**
 * What every chat page needs besides its messages: the visitor's chat list and the
 * suggested questions.
 */
import type { Ctx } from "@/lib/define.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { cursorParam } from "@/lib/http/query.ts";
import { InvalidCursorError } from "@/lib/store/errors.ts";
import type { ChatSummary } from "@/lib/protocol/chat_summary.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { siteSuggestions } from "@/lib/corpus/suggestions.ts";

/** What the chat pages load for the shell. */
export interface ShellData {
  chats: ChatSummary[];
  cursor: string | null;
  /** Suggested questions of an empty chat (lib/corpus/suggestions.ts). */
  suggestions: string[];
}

/** The visitor's chat list page named by `?cursor=` (empty for a new visitor) and suggestions. */
export async function loadShellData(ctx: Ctx<unknown>): Promise<ShellData> {
  const [list, suggestions] = await Promise.all([
    loadChatList(ctx),
    siteSuggestions(localeOf(ctx.state), ctx.app.config.suggestions),
  ]);
  return { ...list, suggestions };
}

async function loadChatList(ctx: Ctx<unknown>): Promise<Omit<ShellData, "suggestions">> {
  // A malformed cursor is a 400 page for every visitor alike, not a silently first page.
  const cursor = cursorParam(ctx.url);
  const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
  if (!visitorId) return { chats: [], cursor: null };
  try {
    return await ctx.app.store.listChats(visitorId, { cursor, limit: 30 });
  } catch (error) {
    if (error instanceof InvalidCursorError) {
      throw new HttpError(
        "invalid_request",
        'Invalid "cursor": send back the cursor of the previous page unchanged.',
      );
    }
    // The chat still works without its list; the failure is logged, not shown as a broken page.
    console.error("Could not list chats:", error);
    return { chats: [], cursor: null };
  }
}
