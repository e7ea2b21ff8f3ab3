/**
 * The body of POST /api/chat at the edge: the protocol's check (lib/protocol/chat_request.ts)
 * with its failures as 400s, and the visitor's new message as the turn keeps it.
 */
import { validateUIMessages } from "ai";
import { HttpError } from "@/lib/http/errors.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import {
  type ChatRequest,
  ChatRequestError,
  checkChatRequest,
} from "@/lib/protocol/chat_request.ts";

/** Validates the parsed JSON body; a failure is a 400 naming the field. */
export function parseChatRequest(body: unknown): ChatRequest {
  try {
    return checkChatRequest(body);
  } catch (error) {
    if (error instanceof ChatRequestError) throw new HttpError("invalid_request", error.message);
    throw error;
  }
}

/**
 * The visitor's new message as the turn keeps it, with the 400s it deserves: `error` is found
 * from the message alone, `invalid` is the SDK's verdict, thrown only after the history checks.
 */
export async function newUserMessage(
  message: ChatMessage,
): Promise<{ message: ChatMessage; error?: HttpError; invalid?: HttpError }> {
  if (message.role !== "user") {
    return {
      message,
      error: new HttpError("invalid_request", 'A new message must have role "user".'),
    };
  }
  // A visitor's message is text. Other parts would let a client forge tool results
  // or make the server download any URL (file parts); metadata belongs to the server.
  if (!message.parts.every((p) => p.type === "text" && typeof p.text === "string")) {
    return {
      message,
      error: new HttpError("invalid_request", 'A new message may only hold "text" parts.'),
    };
  }
  const user: ChatMessage = {
    id: message.id,
    role: "user",
    parts: message.parts.map((p) => ({ type: "text", text: (p as { text: string }).text })),
  };
  // Of this shape (a string id, text parts of string text) the SDK's UI message schema can only
  // refuse an empty parts list (pinned by request_test.ts); only then is it asked, for its
  // exact words. Its zod pass on every turn cost ~0.1 ms before the first token.
  if (user.parts.length > 0) return { message: user };
  try {
    await validateUIMessages<ChatMessage>({ messages: [user] });
    return { message: user };
  } catch (error) {
    return {
      message: user,
      invalid: new HttpError(
        "invalid_request",
        `Invalid "message": ${(error as Error).message.split("\n")[0]}`,
      ),
    };
  }
}
