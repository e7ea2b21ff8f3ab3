/**
 * What every chat page needs besides its messages: the visitor's chat list.
 */
import type { ShellData } from "@/components/ChatShell.tsx";
import type { Ctx } from "@/lib/http/define.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";

/** The visitor's chat list page named by `?cursor=`; empty for a new visitor. */
export async function loadShellData(ctx: Ctx<unknown>): Promise<ShellData> {
  const visitorId = await existingVisitor(ctx.req, ctx.app.signer);
  if (!visitorId) return { chats: [], cursor: null };
  const cursor = ctx.url.searchParams.get("cursor") || undefined;
  try {
    return await ctx.app.store.listChats(visitorId, { cursor, limit: 30 });
  } catch (error) {
    // The chat still works without its list; the failure is logged, not shown as a broken page.
    console.error("Could not list chats:", error);
    return { chats: [], cursor: null };
  }
}
