/**
 * The body of POST /api/chat, validated at the edge. The client sends only the
 * new message (or its approval responses); history comes from KV.
 */
import { z } from "zod";
import { HttpError } from "@/lib/http/errors.ts";

/** Chat ids are opaque client-generated tokens. */
export const CHAT_ID = /^[A-Za-z0-9_-]{8,64}$/;

const messageSchema = z.object({
  id: z.string().min(1).max(128),
  role: z.enum(["user", "assistant"]),
  parts: z.array(z.looseObject({ type: z.string().min(1).max(64) })).max(200),
  metadata: z.unknown().optional(),
}).loose();

const bodySchema = z.object({
  id: z.string().regex(CHAT_ID, "must be 8–64 letters, digits, '-' or '_'"),
  message: messageSchema.optional(),
  model: z.string().min(1).max(128).optional(),
  trigger: z.enum(["submit-message", "regenerate-message"]).default("submit-message"),
  messageId: z.string().min(1).max(128).optional(),
}).loose();

/** A validated chat request. */
export type ChatRequest = z.infer<typeof bodySchema>;

/** Deepest JSON nesting accepted: saved messages are later rendered and serialised recursively. */
export const MAX_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `max` (iterative: no stack to overflow). */
function tooDeep(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Validates the parsed JSON body; a failure is a 400 naming the field. */
export function parseChatRequest(body: unknown): ChatRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError("invalid_request", "The body must be a JSON object.");
  }
  if (tooDeep(body, MAX_DEPTH)) {
    throw new HttpError("invalid_request", `The body nests deeper than ${MAX_DEPTH} levels.`);
  }
  const result = bodySchema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue.path.join(".") || "(body)";
    throw new HttpError("invalid_request", `Invalid "${path}": ${issue.message}.`);
  }
  const req = result.data;
  if (req.trigger === "submit-message" && !req.message) {
    throw new HttpError(
      "invalid_request",
      'Invalid "message": required when trigger is "submit-message".',
    );
  }
  return req;
}
