/**
 * Continuing an answer that waits for the visitor: their approval responses,
 * or the results of tools their browser ran. Every check happens here, before
 * anything is executed: the approval must be one this server issued for this
 * chat's last answer and still pending, its signature must bind the exact
 * arguments, it must not have expired, and an edit must fit the operation's
 * input schema. Single use is claimed by the caller once all checks passed.
 */
import { validateArguments } from "@/lib/agents/input_schema.ts";
import type { JsonSchema } from "@/lib/agents/types.ts";
import { HttpError } from "@/lib/http/errors.ts";
import type { ChatRequest } from "@/lib/protocol/chat_request.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

/** What the continuation reads of an approval descriptor (see lib/chat/approvals.ts). */
export interface DescriptorFields {
  expiresAt: number;
  signature: string;
  runIn?: "server" | "browser";
  edit?: { operation: { inputSchema: JsonSchema } };
}

/** A tool part as stored: the fields a continuation reads and writes. */
interface ToolPart {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  approval?: {
    id: string;
    approved?: boolean;
    reason?: string;
    edited?: boolean;
    descriptor?: DescriptorFields;
  };
}

/** The checks a continuation needs from the server. */
export interface ContinuationDeps {
  chatId: string;
  now: number;
  /** Whether `signature` binds this call's exact name, id, input and expiry to this chat. */
  verify(call: {
    chatId: string;
    toolCallId: string;
    toolName: string;
    input: unknown;
    expiresAt: number;
  }, signature: string): Promise<boolean>;
  /** Whether a tool runs in the visitor's browser (it has no server execution). */
  runsInBrowser(toolName: string): boolean;
}

/** The continued answer and the approvals to claim before it runs. */
export interface Continuation {
  /** History with the continued answer (responses applied) last. */
  messages: ChatMessage[];
  continued: ChatMessage;
  /** Approval ids to claim, once, before any execution. */
  claims: string[];
}

const invalid = (message: string) => new HttpError("invalid_request", message);

/** Applies the request's approval responses or tool outputs to the chat's last answer. */
export async function continuationPlan(
  history: ChatMessage[],
  request: ChatRequest,
  deps: ContinuationDeps,
): Promise<Continuation> {
  const last = history.at(-1);
  if (!last || last.role !== "assistant") {
    throw invalid("This chat has no answer waiting for the visitor. Reload the chat.");
  }
  const continued = structuredClone(last);
  const parts = continued.parts as unknown as ToolPart[];
  // Browser results may come with the message's approval responses (the browser ran the
  // approved calls first): the responses are checked and applied before the results.
  const claims = request.approvals ? await applyApprovals(parts, request.approvals, deps) : [];
  if (request.trigger === "tool-outputs") {
    claims.push(...applyOutputs(parts, request.outputs ?? [], deps));
  }
  // An approved call of a browser-run agent has no server execution: without its result the
  // model would go on as if it had run.
  const unrun = parts.find((p) =>
    p.state === "approval-responded" && p.approval?.approved === true &&
    deps.runsInBrowser(p.type.slice("tool-".length))
  );
  if (unrun) {
    throw invalid(
      `Tool call "${unrun.toolCallId}" runs in the browser: send its result with trigger "tool-outputs".`,
    );
  }
  return {
    messages: [...history.slice(0, -1), continued],
    continued,
    claims: [...new Set(claims)],
  };
}

async function applyApprovals(
  parts: ToolPart[],
  approvals: NonNullable<ChatRequest["approvals"]>,
  deps: ContinuationDeps,
): Promise<string[]> {
  const answered = new Set(approvals.map((a) => a.approvalId));
  if (answered.size !== approvals.length) throw invalid("Each approval may be answered once.");
  const pending = parts.filter((p) => p.state === "approval-requested" && p.approval);
  for (const part of pending) {
    if (!answered.has(part.approval!.id)) {
      throw invalid(`Approval "${part.approval!.id}" needs an answer too: send every pending one.`);
    }
  }
  for (const response of approvals) {
    const part = pending.find((p) => p.approval!.id === response.approvalId);
    if (!part) {
      throw invalid(`Approval "${response.approvalId}" is not pending in this chat.`);
    }
    const descriptor = part.approval!.descriptor;
    await checkIssued(part, descriptor, deps);
    let input = part.input;
    if (response.input !== undefined) {
      const schema = descriptor!.edit?.operation.inputSchema;
      const problems = schema ? validateArguments(schema, response.input) : ["it cannot be edited"];
      if (problems.length) {
        throw invalid(`The edited request is not valid: ${problems.slice(0, 3).join("; ")}.`);
      }
      input = response.input;
    }
    part.input = input;
    part.state = "approval-responded";
    part.approval = {
      ...part.approval!,
      approved: response.approved,
      ...(response.reason ? { reason: response.reason } : {}),
      ...(response.input !== undefined ? { edited: true } : {}),
    };
  }
  return approvals.map((a) => a.approvalId);
}

/** The approval is this server's, for these exact arguments, and still valid. */
async function checkIssued(
  part: ToolPart,
  descriptor: DescriptorFields | undefined,
  deps: ContinuationDeps,
): Promise<void> {
  const id = part.approval!.id;
  if (!descriptor || typeof descriptor.signature !== "string") {
    throw invalid(`Approval "${id}" was not issued by this server.`);
  }
  if (!(descriptor.expiresAt > deps.now)) {
    throw invalid(`Approval "${id}" has expired. Ask again to get a new one.`);
  }
  const ok = await deps.verify({
    chatId: deps.chatId,
    toolCallId: part.toolCallId,
    toolName: part.type.slice("tool-".length),
    input: part.input,
    expiresAt: descriptor.expiresAt,
  }, descriptor.signature);
  if (!ok) throw invalid(`Approval "${id}" does not match the request it was issued for.`);
}

function applyOutputs(
  parts: ToolPart[],
  outputs: NonNullable<ChatRequest["outputs"]>,
  deps: ContinuationDeps,
): string[] {
  const claims: string[] = [];
  for (const { toolCallId, output } of outputs) {
    const part = parts.find((p) => p.toolCallId === toolCallId);
    const toolName = part?.type.slice("tool-".length) ?? "";
    const waiting = part &&
      (part.state === "input-available" || part.state === "approval-requested" ||
        (part.state === "approval-responded" && part.approval?.approved === true));
    if (!part || !waiting || !deps.runsInBrowser(toolName)) {
      throw invalid(`Tool call "${toolCallId}" is not waiting for a result from the browser.`);
    }
    if (part.approval && part.state !== "input-available") claims.push(part.approval.id);
    part.state = "output-available";
    part.output = output;
  }
  return claims;
}
