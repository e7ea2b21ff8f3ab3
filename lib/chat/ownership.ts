/**
 * Loads a chat only for its owner: another visitor's chat is reported exactly
 * like a missing one (404), so ids reveal nothing.
 */
import { HttpError } from "@/lib/http/errors.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";
import type { AppServices } from "@/lib/services.ts";
import type { ChatRecord } from "@/lib/store/chats.ts";
import { CHAT_ID } from "./request.ts";

/** The chat `id` if the request's visitor owns it; otherwise a 404 HttpError. */
export async function ownedChat(req: Request, app: AppServices, id: string): Promise<ChatRecord> {
  const notFound = new HttpError("not_found", `Chat "${id}" not found.`);
  if (!CHAT_ID.test(id)) throw notFound;
  const visitorId = await existingVisitor(req, app.signer);
  if (!visitorId) throw notFound;
  const chat = await app.store.getChat(id);
  if (!chat || chat.visitorId !== visitorId) throw notFound;
  return chat;
}
