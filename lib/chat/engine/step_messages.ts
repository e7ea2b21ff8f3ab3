/**
 * The messages a step adds to the prompt of the next one: the assistant's
 * text, reasoning and tool calls, then one tool message with every result, as
 * the model's own tool-calling protocol expects them.
 */
import type { AssistantContent, ModelMessage, ProviderMetadata, ToolResultPart } from "ai";
import { getErrorMessage } from "@ai-sdk/provider-utils";
import type { ToolOutcome } from "./tool_calls.ts";

/** A tool call of the step and, once it ran, how it went. */
export interface StepToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerMetadata?: ProviderMetadata;
  outcome: ToolOutcome | undefined;
}

/** What the step produced, in order. */
export interface StepContent {
  parts: Array<
    | { type: "text" | "reasoning"; id: string; text: string; providerMetadata?: ProviderMetadata }
    | { type: "tool-call"; toolCallId: string }
  >;
  calls: StepToolCall[];
}

/** The assistant message and the tool message of a step whose calls all answered. */
export function stepMessages(content: StepContent): ModelMessage[] {
  const calls = new Map(content.calls.map((c) => [c.toolCallId, c]));
  const assistant: ModelMessage = {
    role: "assistant",
    content: content.parts.flatMap((p): Exclude<AssistantContent, string> => {
      if (p.type !== "tool-call") {
        if (p.type === "text" && !p.text) return [];
        return [{
          type: p.type,
          text: p.text,
          ...(p.providerMetadata != null ? { providerOptions: p.providerMetadata } : {}),
        }];
      }
      const call = calls.get(p.toolCallId)!;
      return [{
        type: "tool-call" as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.input,
        ...(call.providerMetadata != null ? { providerOptions: call.providerMetadata } : {}),
      }];
    }),
  };
  const results: ToolResultPart[] = content.calls.map((call) => ({
    type: "tool-result",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: call.outcome?.ok
      ? call.outcome.modelOutput
      // The model is told what went wrong, so that it can correct its call; the visitor is not.
      : { type: "error-text", value: getErrorMessage(call.outcome?.error) },
  }));
  return [assistant, { role: "tool", content: results }];
}
