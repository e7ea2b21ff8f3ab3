/**
 * Loads a chat only for its owner: another visitor's chat is reported exactly
 * like a missing one (404), so ids reveal nothing.
 */
import { HttpError } from "@/lib/http/errors.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";
import type { AppServices } from "@/lib/services.ts";
import type { ChatRecord, StreamPointer } from "@/lib/store/ports.ts";
import { CHAT_ID } from "@/lib/protocol/chat_id.ts";

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

/**
 * The running stream of chat `id` for its owner: null when nothing runs, a 404 HttpError
 * for anyone else. The stream's pointer names its visitor, so a chat whose first question
 * is not saved yet is still found.
 */
export async function activeOwnedStream(
  req: Request,
  app: AppServices,
  id: string,
): Promise<StreamPointer | null> {
  if (!CHAT_ID.test(id)) throw new HttpError("not_found", `Chat "${id}" not found.`);
  const visitorId = await existingVisitor(req, app.signer);
  const pointer = await app.streamLog.active(id);
  if (pointer && visitorId && pointer.visitorId === visitorId) return pointer;
  await ownedChat(req, app, id);
  return pointer?.visitorId === visitorId ? pointer : null;
}
