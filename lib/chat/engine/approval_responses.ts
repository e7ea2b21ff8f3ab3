/**
 * Continuing a turn from the visitor's approval responses, as `streamText`
 * does at its start (ai/src/generate-text/collect-tool-approvals.ts and the
 * "initial tool execution step" of stream-text.ts): when the messages end with
 * a tool message holding `tool-approval-response` parts, the approved calls are
 * executed and the denied ones answered with an `execution-denied` result,
 * before the next model call.
 *
 * Whether an approval may be honoured at all (issued by this server, signed for
 * these arguments, unexpired, used once) is the caller's to check first
 * (lib/chat/turn/continue.ts); this module only carries out the answers.
 */
import {
  InvalidToolInputError,
  type ModelMessage,
  type ToolCallPart,
  type ToolResultPart,
  type ToolSet,
} from "ai";
import { asSchema, getErrorMessage, safeValidateTypes } from "@ai-sdk/provider-utils";
import { canonicalJson } from "../approvals.ts";
import type { ChunkSink } from "./ui_chunks.ts";
import { executeToolCall } from "./tool_calls.ts";
import type { CallBudget } from "./call_budget.ts";

/** One answered approval of the continued message. */
export interface CollectedApproval {
  approvalId: string;
  toolCall: ToolCallPart;
  approved: boolean;
  reason?: string;
  /** The history already holds a result for the call (a denial converted from the UI message). */
  hasResult: boolean;
}

/** The approval responses the messages end with, approved ones in the model's call order. */
export interface CollectedApprovals {
  approved: CollectedApproval[];
  denied: CollectedApproval[];
}

/**
 * The approval responses of the last message when it is a tool message (none otherwise).
 * Throws when a response names an approval or a call the history does not hold.
 */
export function collectApprovals(messages: ModelMessage[]): CollectedApprovals {
  const last = messages.at(-1);
  if (last?.role !== "tool") return { approved: [], denied: [] };
  // Ids come from the client's history: no prototype, so "__proto__" is just absent.
  const calls: Record<string, ToolCallPart> = Object.create(null);
  const order: Record<string, number> = Object.create(null);
  const requests: Record<string, string> = Object.create(null);
  let n = 0;
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-call") {
        calls[part.toolCallId] = part;
        order[part.toolCallId] = n++;
      } else if (part.type === "tool-approval-request") {
        requests[part.approvalId] = part.toolCallId;
      }
    }
  }
  const results: Record<string, ToolResultPart> = Object.create(null);
  for (const part of last.content) if (part.type === "tool-result") results[part.toolCallId] = part;
  const collected: CollectedApprovals = { approved: [], denied: [] };
  const seen = new Set<string>();
  for (const response of last.content) {
    if (response.type !== "tool-approval-response") continue;
    const toolCallId = requests[response.approvalId];
    if (toolCallId === undefined) {
      throw new Error(
        `Approval "${response.approvalId}" answers no approval request of the history.`,
      );
    }
    const result = results[toolCallId];
    // Answered already (the browser's output, or an execution): nothing left to do.
    if (result && (response.approved || result.output.type !== "execution-denied")) continue;
    const toolCall = calls[toolCallId];
    if (!toolCall) {
      throw new Error(`Approval "${response.approvalId}" is for call "${toolCallId}", not found.`);
    }
    // Only the first answer of a call counts: a call never runs twice, nor runs and is denied.
    if (seen.has(toolCallId)) continue;
    seen.add(toolCallId);
    (response.approved ? collected.approved : collected.denied).push({
      approvalId: response.approvalId,
      toolCall,
      approved: response.approved,
      ...(response.reason != null ? { reason: response.reason } : {}),
      hasResult: result !== undefined,
    });
  }
  collected.approved.sort((a, b) => order[a.toolCall.toolCallId] - order[b.toolCall.toolCallId]);
  return collected;
}

/** What carrying out the answers needs. */
export interface AnswerOptions {
  tools: ToolSet;
  abortSignal: AbortSignal;
  errorText: (error: unknown, where: "model" | "tool") => string;
  /** Bounds how many approved calls run at once (all at once without it). */
  budget?: Pick<CallBudget, "run">;
}

/**
 * Carries out `collected`: denials become `tool-output-denied`; approved calls whose input
 * still fits the tool's schema run (their outputs or errors streamed as they come), others
 * fail without running. Returns the tool message the model reads next, if any.
 */
export async function answerApprovals(
  collected: CollectedApprovals,
  messages: ModelMessage[],
  options: AnswerOptions,
  emit: ChunkSink,
): Promise<ModelMessage | undefined> {
  const local = (a: CollectedApproval) => a.toolCall.providerExecuted !== true;
  const denied = [...collected.denied.filter(local), ...collected.denied.filter((a) => !local(a))];
  for (const a of denied) emit({ type: "tool-output-denied", toolCallId: a.toolCall.toolCallId });
  const approved: CollectedApproval[] = [];
  const invalid: Array<{ call: ToolCallPart; error: unknown }> = [];
  for (const a of collected.approved.filter(local)) {
    const error = await inputError(options.tools, a.toolCall);
    if (error === undefined) approved.push(a);
    else invalid.push({ call: a.toolCall, error });
  }
  for (const { call, error } of invalid) {
    emit({
      type: "tool-output-error",
      toolCallId: call.toolCallId,
      errorText: options.errorText(error, "tool"),
    });
  }
  const results = await Promise.all(approved.map(async ({ toolCall }) => {
    const tool = options.tools[toolCall.toolName];
    if (!tool?.execute) return undefined;
    const run = () =>
      executeToolCall(tool, toolCall, { messages, abortSignal: options.abortSignal });
    const outcome = await (options.budget ? options.budget.run(run) : run());
    emit(
      outcome.ok
        ? { type: "tool-output-available", toolCallId: toolCall.toolCallId, output: outcome.output }
        : {
          type: "tool-output-error",
          toolCallId: toolCall.toolCallId,
          errorText: options.errorText(outcome.error, "tool"),
        },
    );
    return { toolCall, outcome };
  }));
  const content: ToolResultPart[] = [];
  for (const r of results) {
    if (!r) continue;
    const { toolCallId, toolName } = r.toolCall;
    content.push({
      type: "tool-result",
      toolCallId,
      toolName,
      output: r.outcome.ok
        ? r.outcome.modelOutput
        : { type: "error-text", value: getErrorMessage(r.outcome.error) },
    });
  }
  for (const { call, error } of invalid) {
    content.push({
      type: "tool-result",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: "error-text", value: getErrorMessage(error) },
    });
  }
  for (const a of collected.denied.filter((a) => local(a) && !a.hasResult)) {
    content.push({
      type: "tool-result",
      toolCallId: a.toolCall.toolCallId,
      toolName: a.toolCall.toolName,
      output: { type: "execution-denied", reason: a.reason },
    });
  }
  return content.length > 0 ? { role: "tool", content } : undefined;
}

/**
 * Why an approved call's input no longer fits its tool, or undefined when it does. The
 * input runs exactly as approved: a schema that would transform it counts as a misfit,
 * since the visitor approved these arguments and no others.
 */
async function inputError(tools: ToolSet, call: ToolCallPart): Promise<unknown> {
  const tool = Object.hasOwn(tools, call.toolName) ? tools[call.toolName] : undefined;
  if (!tool?.execute || tool.inputSchema == null) return undefined;
  let cause: unknown;
  try {
    const validation = await safeValidateTypes({
      value: structuredClone(call.input),
      schema: asSchema(tool.inputSchema),
    });
    if (!validation.success) cause = validation.error;
    else if (canonicalJson(validation.value) !== canonicalJson(call.input)) {
      cause = new Error("Approved tool input does not match the validated schema output.");
    } else return undefined;
  } catch (error) {
    cause = error;
  }
  return new InvalidToolInputError({
    toolName: call.toolName,
    toolInput: JSON.stringify(call.input),
    cause,
  });
}
