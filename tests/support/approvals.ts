/**
 * Fixtures for the approval UI tests: an agent operation with a path parameter
 * and a JSON body, descriptors as the server would sign them (signature is a
 * dummy: the client never checks it), approval streams and canned SSE bodies.
 */
import type { UIMessageChunk } from "ai";
import { buildRequest, describeRequest } from "@/lib/agents/request.ts";
import { operationInputSchema } from "@/lib/agents/input_schema.ts";
import type { AgentOperation, AgentParameter } from "@/lib/agents/types.ts";
import type { ApprovalDescriptorView } from "@/lib/client/approval.ts";

const boxParam: AgentParameter = {
  name: "box",
  in: "path",
  required: true,
  schema: { type: "string", minLength: 1 },
};
const urgentParam: AgentParameter = {
  name: "urgent",
  in: "query",
  required: false,
  schema: { type: "boolean" },
};
const bodySchema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, description: "Your name" },
    email: { type: "string", format: "email", pattern: "^[^@\\s]+@[^@\\s]+$" },
    message: { type: "string", minLength: 1, maxLength: 2000 },
    copies: { type: "integer", minimum: 1, maximum: 3 },
  },
  required: ["name", "email", "message"],
  additionalProperties: false,
};

/** POST /boxes/{box}/messages?urgent=… with a JSON body: the tool `leave_message`. */
export function leaveMessageOperation(agentId = "contact"): AgentOperation {
  return {
    agentId,
    toolName: "leave_message",
    method: "POST",
    pathTemplate: "/boxes/{box}/messages",
    summary: "Leave a message for the site owner",
    parameters: { path: [boxParam], query: [urgentParam], header: [] },
    requestBody: { required: true, schema: bodySchema },
    inputSchema: operationInputSchema([boxParam, urgentParam], {
      required: true,
      schema: bodySchema,
    }),
    needsApproval: true,
  };
}

/** Arguments the model proposed. */
export const PROPOSED = {
  box: "owner inbox/1",
  body: { name: "Ana", email: "ana@example.org", message: "Olá! Quero um orçamento." },
};

/** A descriptor for `input` as the server would attach it. */
export function descriptorFor(
  input: Record<string, unknown>,
  {
    baseUrl = "https://api.example.org/v1",
    runIn = "server",
    headers = { Authorization: "Bearer s3cret", "X-Site": "demo" },
  }: { baseUrl?: string; runIn?: "server" | "browser"; headers?: Record<string, string> } = {},
): ApprovalDescriptorView {
  const operation = leaveMessageOperation();
  const built = buildRequest(operation, input, {
    baseUrl,
    headers,
    metadata: { chatId: "c1", locale: "pt-BR", visitor: "v_hash" },
  });
  if ("error" in built) throw new Error(built.error.message);
  return {
    v: 1,
    agentId: "contact",
    agentName: "Contato",
    expiresAt: Date.now() + 30 * 60_000,
    signature: "sig",
    runIn,
    request: describeRequest(built.request, Object.keys(headers).filter((h) => h !== "X-Site")),
    edit: { operation, baseUrl },
  };
}

/** The chunks of a turn that stops for the approval of `calls` (one step). */
export function approvalTurn(
  messageId: string,
  calls: Array<{ toolCallId: string; approvalId: string; descriptor: ApprovalDescriptorView }>,
): UIMessageChunk[] {
  return [
    { type: "start", messageId },
    { type: "start-step" },
    ...calls.flatMap((c) =>
      [
        { type: "tool-input-start", toolCallId: c.toolCallId, toolName: "leave_message" },
        {
          type: "tool-input-available",
          toolCallId: c.toolCallId,
          toolName: "leave_message",
          input: PROPOSED,
        },
        {
          type: "tool-approval-request",
          toolCallId: c.toolCallId,
          approvalId: c.approvalId,
          approvalDescriptor: c.descriptor,
        },
      ] as UIMessageChunk[]
    ),
    { type: "finish-step" },
    {
      type: "finish",
      finishReason: "tool-calls",
      messageMetadata: { outcome: "awaiting-approval" },
    },
  ] as UIMessageChunk[];
}

/** A UI message stream body (SSE) of `chunks`. */
export function sse(chunks: UIMessageChunk[]): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
}

/** A response carrying `chunks` as the chat endpoint would. */
export function sseResponse(chunks: UIMessageChunk[]): Response {
  return new Response(sse(chunks), {
    headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" },
  });
}
