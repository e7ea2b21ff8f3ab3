/**
 * One model call for the engine: the prompt and tools prepared with the AI SDK's own
 * functions (`ai/internal`: prompt standardisation and conversion, tool preparation,
 * tool-call parsing and validation), the provider adapter's `doStream` called directly, and
 * its parts translated to the SDK's `LanguageModelStreamPart`s as the engine reads them.
 *
 * Why not `streamLanguageModelCall`: it pipes the adapter's stream through an `async`
 * TransformStream, one more stream hop and a promise per chunk, plus timing bookkeeping the
 * engine never reads. A streamed answer has hundreds of chunks, and that hop was about a
 * tenth of the app's CPU per turn (BENCHMARKS.md, capacity). Here a text, reasoning or tool
 * input part is translated synchronously; only a tool call (its input is parsed and
 * validated) and a file whose data is a URL take a promise.
 *
 * The translation follows the SDK's: `text-delta` carries `text`, `finish` becomes
 * `model-call-end` with the SDK's usage, a tool call whose input fails its schema comes with
 * its `tool-error`, and on a call with `toolChoice: "none"` tool parts are withheld and a
 * tool call fails the call with the SDK's `ToolChoiceViolationError`.
 */
import {
  DefaultGeneratedFile,
  type FinishReason,
  type LanguageModel,
  type LanguageModelStreamPart,
  type ModelMessage,
  ToolChoiceViolationError,
  type ToolSet,
} from "ai";
import {
  asLanguageModelUsage,
  convertToLanguageModelPrompt,
  createDefaultDownloadFunction,
  parseToolCall,
  prepareToolChoice,
  prepareTools,
  resolveLanguageModel,
  standardizePrompt,
} from "ai/internal";
import type {
  LanguageModelV4,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolChoice,
} from "@ai-sdk/provider";
import { getErrorMessage } from "@ai-sdk/provider-utils";

/** What one call needs. */
export interface ModelCallOptions {
  model: LanguageModel;
  instructions: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /** "none": the call may not call tools (the engine's last step). */
  toolChoice?: "none";
  maxOutputTokens: number;
  abortSignal: AbortSignal;
}

type Part = LanguageModelStreamPart<ToolSet>;

/**
 * What translating one adapter part gives: nothing, one part, several in order, or (a tool
 * call, a file to download) a promise of them.
 */
export type Translated = Part | readonly Part[] | Promise<readonly Part[]> | undefined;

/** A call in flight: read the adapter's parts from `reader`, and `translate` each. */
export interface ModelCall {
  reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>;
  translate(part: LanguageModelV4StreamPart): Translated;
}

/** Prepares the prompt and tools as the SDK does and starts the adapter's stream. */
export async function startModelCall(options: ModelCallOptions): Promise<ModelCall> {
  const model = resolveLanguageModel(options.model);
  const { messages, tools, abortSignal } = options;
  const standardized = await standardizePrompt({ instructions: options.instructions, messages });
  const prompt = await convertToLanguageModelPrompt({
    prompt: { instructions: standardized.instructions, messages: standardized.messages },
    supportedUrls: await model.supportedUrls,
    download: undefined,
    abortSignal,
    provider: model.provider.split(".")[0],
  });
  const toolChoice = prepareToolChoice({ toolChoice: options.toolChoice });
  const { stream } = await model.doStream({
    prompt,
    tools: await prepareTools({ tools }),
    toolChoice,
    maxOutputTokens: options.maxOutputTokens,
    abortSignal,
  });
  return {
    reader: stream.getReader(),
    translate: partTranslator({ model, tools, toolChoice, messages, abortSignal }),
  };
}

/** The translation of one call's parts; it keeps the call's tool calls, for the checks at its end. */
function partTranslator(call: {
  model: LanguageModelV4;
  tools: ToolSet;
  toolChoice: LanguageModelV4ToolChoice;
  messages: ModelMessage[];
  abortSignal: AbortSignal;
}): (part: LanguageModelV4StreamPart) => Translated {
  const { tools, toolChoice, messages, abortSignal } = call;
  // With "none" a tool call fails the call at its end: no tool part may reach the engine
  // before that (it would run the tool).
  const withhold = toolChoice.type === "none";
  const toolNames: string[] = [];
  return (part) => {
    switch (part.type) {
      case "text-delta":
      case "reasoning-delta":
        return {
          type: part.type,
          id: part.id,
          text: part.delta,
          providerMetadata: part.providerMetadata,
        };
      case "text-start":
      case "text-end":
      case "reasoning-start":
      case "reasoning-end":
      case "source":
      case "custom":
        return part as Part;
      case "tool-input-start": {
        if (withhold) return undefined;
        const tool = Object.hasOwn(tools, part.toolName) ? tools[part.toolName] : undefined;
        return {
          ...part,
          dynamic: part.dynamic ?? tool?.type === "dynamic",
          title: tool?.title,
          ...(tool?.metadata != null ? { toolMetadata: tool.metadata } : {}),
        } as Part;
      }
      case "tool-input-delta":
      case "tool-input-end":
        return withhold ? undefined : part as Part;
      case "tool-call":
        toolNames.push(part.toolName);
        return withhold ? undefined : parsedToolCall(part, { tools, messages, abortSignal });
      case "tool-result":
        return withhold ? undefined : providerToolResult(part);
      case "file":
      case "reasoning-file":
        return filePart(part, abortSignal);
      case "finish":
        return callEnd(part, toolChoice, toolNames, call.model);
      case "error":
        return { type: "error", error: part.error };
      case "stream-start":
        return { type: "model-call-start", warnings: part.warnings };
      default:
        // response-metadata, raw chunks, provider approval requests: nothing the engine reads.
        return undefined;
    }
  };
}

/** A tool call with its input parsed and checked against the tool's schema (and its error if invalid). */
async function parsedToolCall(
  part: Extract<LanguageModelV4StreamPart, { type: "tool-call" }>,
  context: { tools: ToolSet; messages: ModelMessage[]; abortSignal: AbortSignal },
): Promise<readonly Part[]> {
  try {
    const call = await parseToolCall({
      toolCall: part,
      tools: context.tools,
      repairToolCall: undefined,
      instructions: undefined,
      messages: context.messages,
      abortSignal: context.abortSignal,
    });
    if (!call.invalid || call.providerExecuted) return [call as Part];
    return [call as Part, {
      type: "tool-error",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      error: getErrorMessage(call.error),
      dynamic: true,
      title: call.title,
    } as Part];
  } catch (error) {
    return [{ type: "error", error }];
  }
}

/** The result of a tool the provider ran itself. */
function providerToolResult(
  part: Extract<LanguageModelV4StreamPart, { type: "tool-result" }>,
): Part {
  const common = {
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    input: undefined,
    providerExecuted: true,
    dynamic: part.dynamic,
    ...(part.providerMetadata != null ? { providerMetadata: part.providerMetadata } : {}),
  };
  return (part.isError
    ? { type: "tool-error", ...common, error: part.result }
    : { type: "tool-result", ...common, output: part.result }) as Part;
}

/** A generated file; one given by URL is downloaded first, as the SDK does. */
function filePart(
  part: Extract<LanguageModelV4StreamPart, { type: "file" | "reasoning-file" }>,
  abortSignal: AbortSignal,
): Translated {
  const make = (data: string | Uint8Array) =>
    ({
      type: part.type,
      file: new DefaultGeneratedFile({ data, mediaType: part.mediaType }),
      providerMetadata: part.providerMetadata,
    }) as Part;
  if (part.data.type === "data") return make(part.data.data);
  const url = part.data.url;
  const download = createDefaultDownloadFunction(undefined, abortSignal);
  return Promise.resolve(download([{ url, isUrlSupportedByModel: false, abortSignal }]))
    .then(([file]) => [make(file!.data)]);
}

/** The call's end with its usage; with a tool choice the model broke, the error that fails it. */
function callEnd(
  part: Extract<LanguageModelV4StreamPart, { type: "finish" }>,
  toolChoice: LanguageModelV4ToolChoice,
  toolNames: string[],
  model: LanguageModelV4,
): Part | readonly Part[] {
  const violated = toolChoice.type === "none"
    ? toolNames.length > 0
    : toolChoice.type === "auto"
    ? false
    : part.finishReason.unified !== "interrupted" &&
      !toolNames.some((name) => toolChoice.type === "required" || name === toolChoice.toolName);
  const end = {
    type: "model-call-end",
    finishReason: (violated ? "error" : part.finishReason.unified) as FinishReason,
    rawFinishReason: part.finishReason.raw,
    usage: asLanguageModelUsage(part.usage),
    providerMetadata: part.providerMetadata,
    // The SDK's timing figures: the engine reads none of them.
    performance: {
      responseTimeMs: 0,
      effectiveOutputTokensPerSecond: 0,
      outputTokensPerSecond: undefined,
      inputTokensPerSecond: undefined,
      effectiveTotalTokensPerSecond: 0,
      timeToFirstOutputMs: undefined,
    },
  } as Part;
  if (!violated) return end;
  const error = new ToolChoiceViolationError({
    toolChoice: toolChoice as Exclude<LanguageModelV4ToolChoice, { type: "auto" }>,
    finishReason: part.finishReason.unified,
    provider: model.provider,
    modelId: model.modelId,
    content: [],
  });
  return [end, { type: "error", error }];
}
