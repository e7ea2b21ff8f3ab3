/**
 * The body of POST /api/chat, as the client sends it and the server checks it. The client sends
 * only the new message (or its approval responses, or the outputs of tools its browser ran);
 * history comes from KV.
 */
import { z } from "zod";
import { type ApprovalResponse, MAX_REASON, type ToolOutput } from "./approval.ts";
import { CHAT_ID } from "./chat_id.ts";

/** A body the chat endpoint refuses; the message names the field (the server answers 400). */
export class ChatRequestError extends Error {
  override name = "ChatRequestError";
}

const messageSchema = z.object({
  id: z.string().min(1).max(128),
  role: z.enum(["user", "assistant"]),
  parts: z.array(z.looseObject({ type: z.string().min(1).max(64) })).max(200),
  metadata: z.unknown().optional(),
}).loose();

/** The visitor's decision on one pending approval; `input` is an edit of the arguments. */
const approvalResponseSchema = z.object({
  approvalId: z.string().min(1).max(64),
  approved: z.boolean(),
  reason: z.string().max(MAX_REASON).optional(),
  input: z.record(z.string(), z.unknown()).optional(),
}).strict().refine((a) => a.approved || a.input === undefined, {
  message: "an edited input goes only with an approval",
});

/** The result of a tool the visitor's browser ran (a browser-run agent). */
const toolOutputSchema = z.object({
  toolCallId: z.string().min(1).max(128),
  output: z.union([
    z.object({ data: z.unknown() }).strict(),
    z.object({ error: z.object({ status: z.number(), message: z.string().max(2000) }).loose() })
      .strict(),
  ]),
}).strict();

// The schemas check exactly the wire types of approval.ts: a drift fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameApproval: Same<z.infer<typeof approvalResponseSchema>, ApprovalResponse> = true;
const _sameOutput: Same<z.infer<typeof toolOutputSchema>, ToolOutput> = true;

const bodySchema = z.object({
  id: z.string().regex(CHAT_ID, "must be 8–64 letters, digits, '-' or '_'"),
  message: messageSchema.optional(),
  model: z.string().min(1).max(128).optional(),
  agent: z.string().min(1).max(64).optional(),
  trigger: z.enum(["submit-message", "regenerate-message", "approval-responses", "tool-outputs"])
    .default("submit-message"),
  messageId: z.string().min(1).max(128).optional(),
  approvals: z.array(approvalResponseSchema).min(1).max(20).optional(),
  outputs: z.array(toolOutputSchema).min(1).max(20).optional(),
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

/** Validates the parsed JSON body; a failure is a ChatRequestError naming the field. */
export function checkChatRequest(body: unknown): ChatRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ChatRequestError("The body must be a JSON object.");
  }
  const req = plainChatRequest(body as Record<string, unknown>) ?? schemaChatRequest(body);
  if (req.trigger === "submit-message" && !req.message) {
    throw new ChatRequestError(
      'Invalid "message": required when trigger is "submit-message".',
    );
  }
  if (req.trigger === "approval-responses" && !req.approvals) {
    throw new ChatRequestError(
      'Invalid "approvals": required when trigger is "approval-responses".',
    );
  }
  if (req.trigger === "tool-outputs" && !req.outputs) {
    throw new ChatRequestError(
      'Invalid "outputs": required when trigger is "tool-outputs".',
    );
  }
  return req;
}

/** The body as `bodySchema` judges it, nesting depth first; a failure is a ChatRequestError naming the field. */
export function schemaChatRequest(body: object): ChatRequest {
  if (tooDeep(body, MAX_DEPTH)) {
    throw new ChatRequestError(`The body nests deeper than ${MAX_DEPTH} levels.`);
  }
  const result = bodySchema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue.path.join(".") || "(body)";
    throw new ChatRequestError(`Invalid "${path}": ${issue.message}.`);
  }
  return result.data;
}

const BODY_KEYS = new Set(["id", "message", "model", "trigger", "messageId"]);
const MESSAGE_KEYS = new Set(["id", "role", "parts"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null &&
    Object.getPrototypeOf(value) === Object.prototype;
}

function isString(value: unknown, min: number, max: number): value is string {
  return typeof value === "string" && value.length >= min && value.length <= max;
}

/**
 * The usual body (only known fields; a message without metadata whose parts hold only a
 * string `type` and `text`) checked by hand, or null for anything else, which the schema then
 * judges. Of that shape it accepts what `bodySchema` accepts and returns what it returns
 * (pinned by request_test.ts): the schema's pass cost ~0.06 ms before the first token.
 */
export function plainChatRequest(body: Record<string, unknown>): ChatRequest | null {
  if (!isPlainObject(body)) return null;
  for (const key in body) if (!BODY_KEYS.has(key)) return null;
  const { id, message, model, trigger, messageId } = body;
  if (typeof id !== "string" || !CHAT_ID.test(id)) return null;
  if (model !== undefined && !isString(model, 1, 128)) return null;
  if (messageId !== undefined && !isString(messageId, 1, 128)) return null;
  if (trigger !== undefined && trigger !== "submit-message" && trigger !== "regenerate-message") {
    return null;
  }
  if (message !== undefined) {
    if (!isPlainObject(message)) return null;
    for (const key in message) if (!MESSAGE_KEYS.has(key)) return null;
    if (!isString(message.id, 1, 128)) return null;
    if (message.role !== "user" && message.role !== "assistant") return null;
    const parts = message.parts;
    if (!Array.isArray(parts) || parts.length > 200) return null;
    for (const part of parts) {
      if (!isPlainObject(part)) return null;
      for (const key in part) if (key !== "type" && key !== "text") return null;
      if (!isString(part.type, 1, 64)) return null;
      // Strings only, so the body cannot nest deeper than the message's parts.
      if (part.text !== undefined && typeof part.text !== "string") return null;
    }
  }
  return { ...body, trigger: trigger ?? "submit-message" } as ChatRequest;
}
