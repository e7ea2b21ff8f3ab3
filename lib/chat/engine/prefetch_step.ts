/**
 * A tool call the turn makes itself before the first model call (the site search on
 * the visitor's question, lib/chat/prefetch.ts), played as the step a model's own call
 * would have made: the client gets the same chunks (`start-step`, the call's input,
 * its output, `finish-step`) and the first model call reads the call and its result
 * as a prior assistant tool call and tool message, exactly as after a step of its own.
 * So the answer needs one model call less, and nothing downstream can tell the two apart.
 */
import type { ModelMessage, ToolSet } from "ai";
import type { ChunkSink } from "./ui_chunks.ts";
import { stepMessages } from "./step_messages.ts";
import { executeToolCall } from "./tool_calls.ts";

/** A call the turn runs before the model's first one. */
export interface PrefetchCall {
  toolCallId: string;
  toolName: string;
  /** Valid input of the tool (the caller builds it; it is not validated again). */
  input: unknown;
}

/**
 * Runs `call` with its tool from `tools`, streaming it to `emit`; resolves to the
 * messages to add to the prompt. A tool that is missing or has no `execute` makes no
 * step and adds nothing (the model may still call whatever it has).
 */
export async function runPrefetchStep(
  call: PrefetchCall,
  tools: ToolSet,
  context: {
    messages: ModelMessage[];
    abortSignal: AbortSignal;
    errorText: (e: unknown) => string;
  },
  emit: ChunkSink,
): Promise<ModelMessage[]> {
  const tool = Object.hasOwn(tools, call.toolName) ? tools[call.toolName] : undefined;
  if (!tool?.execute) return [];
  const { toolCallId, toolName, input } = call;
  emit({ type: "start-step" });
  emit({ type: "tool-input-available", toolCallId, toolName, input });
  const outcome = await executeToolCall(tool, call, context);
  emit(
    outcome.ok
      ? { type: "tool-output-available", toolCallId, output: outcome.output }
      : { type: "tool-output-error", toolCallId, errorText: context.errorText(outcome.error) },
  );
  emit({ type: "finish-step" });
  return stepMessages({
    parts: [{ type: "tool-call", toolCallId }],
    calls: [{ toolCallId, toolName, input, outcome }],
  });
}
