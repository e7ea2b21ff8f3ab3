/**
 * Runs one tool call of the model: the tool's `execute` with the turn's abort
 * signal, its output (the last one, when the tool streams preliminary ones) and
 * what the model is shown of it (the tool's `toModelOutput`, or the output as JSON).
 */
import type { JSONValue, ModelMessage, Tool } from "ai";
import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import { failSpan, inSpan, TURN_SPANS } from "@/lib/telemetry/spans.ts";

/** How a tool call went. */
export type ToolOutcome =
  | { ok: true; output: unknown; modelOutput: ToolResultOutput }
  | { ok: false; error: unknown };

/** Executes `call` with `tool` (which has an `execute`); never rejects. */
export function executeToolCall(
  tool: Tool,
  call: { toolCallId: string; toolName?: string; input: unknown },
  options: { messages: ModelMessage[]; abortSignal: AbortSignal },
): Promise<ToolOutcome> {
  return inSpan(TURN_SPANS.tool, async (span) => {
    const outcome = await execute(tool, call, options);
    if (!outcome.ok) failSpan(span, outcome.error);
    return outcome;
  }, call.toolName ? { "gen_ai.tool.name": call.toolName } : undefined);
}

async function execute(
  tool: Tool,
  call: { toolCallId: string; input: unknown },
  options: { messages: ModelMessage[]; abortSignal: AbortSignal },
): Promise<ToolOutcome> {
  try {
    const result = tool.execute!(call.input, {
      toolCallId: call.toolCallId,
      messages: options.messages,
      abortSignal: options.abortSignal,
      context: undefined,
    });
    let output: unknown;
    if (isAsyncIterable(result)) {
      for await (const value of result) output = value;
    } else {
      output = await result;
    }
    const modelOutput = await toModelOutput(tool, call, output);
    return { ok: true, output, modelOutput };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * What the model is shown of a tool's output, exactly as the SDK's loop makes it: the
 * tool's `toModelOutput` when it has one (the search tool resolves internal passages
 * there), else a string as text and anything else as plain JSON.
 */
function toModelOutput(
  tool: Tool,
  call: { toolCallId: string; input: unknown },
  output: unknown,
): ToolResultOutput | PromiseLike<ToolResultOutput> {
  if (tool.toModelOutput) {
    return tool.toModelOutput({ toolCallId: call.toolCallId, input: call.input, output });
  }
  if (typeof output === "string") return { type: "text", value: output };
  const json = output === undefined ? undefined : JSON.stringify(output);
  return { type: "json", value: json === undefined ? null : JSON.parse(json) as JSONValue };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value != null && typeof value === "object" && Symbol.asyncIterator in value;
}
