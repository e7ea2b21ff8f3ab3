/**
 * Test helpers for the model layer: a scripted AI SDK language model.
 */
import { ModelUnavailableError } from "./registry.ts";
import type { ModelRegistry } from "./types.ts";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";

/** One tool call of a scripted step. */
export interface ScriptedCall {
  toolName: string;
  input: unknown;
  toolCallId?: string;
}

/** One scripted model step: call a tool, call several in one step, or answer with text. */
export type ScriptedStep =
  | ({ type: "tool-call" } & ScriptedCall)
  | { type: "tool-calls"; calls: ScriptedCall[] }
  | { type: "text"; text: string };

/** A step, or a function that decides the step from the call (e.g. a model that obeys its prompt). */
export type ScriptedStepSource =
  | ScriptedStep
  | ((options: LanguageModelV4CallOptions) => ScriptedStep);

/** A scripted model, with the calls it received. */
export type ScriptedModel = LanguageModelV4 & {
  /** The options of every doStream / doGenerate call, in order. */
  readonly calls: LanguageModelV4CallOptions[];
};

/** What a scripted model answers when its step calls a tool but the call offers none. */
export const SCRIPTED_TOOLLESS_TEXT = "Respondo com o que já encontrei.";

/**
 * A model that plays `steps` in order, one per call, and then repeats the last step
 * forever — so a script ending with a tool call is a model that always calls a tool,
 * which is how the step bound (`maxSteps`) is tested. Like a real provider, it calls no
 * tool when the call offers none (no tools, or toolChoice "none"): such a tool-call step
 * answers {@linkcode SCRIPTED_TOOLLESS_TEXT} instead.
 *
 * @example
 * ```ts
 * const model = createScriptedModel([{ type: "tool-call", toolName: "search_site", input: { query: "x" } }]);
 * await runTurn({ model, tools, maxSteps: 3, ... }, () => {});
 * model.calls.length; // 3
 * ```
 */
export function createScriptedModel(steps: ScriptedStepSource[]): ScriptedModel {
  if (steps.length === 0) throw new Error("createScriptedModel needs at least one step");
  const calls: LanguageModelV4CallOptions[] = [];
  const next = (options: LanguageModelV4CallOptions) => {
    if (options.abortSignal?.aborted) {
      throw options.abortSignal.reason ?? new DOMException("Aborted", "AbortError");
    }
    calls.push(options);
    const index = calls.length - 1;
    const source = steps[Math.min(index, steps.length - 1)];
    const scripted = typeof source === "function" ? source(options) : source;
    const toolless = !options.tools?.length || options.toolChoice?.type === "none";
    const step: ScriptedStep = scripted.type !== "text" && toolless
      ? { type: "text", text: SCRIPTED_TOOLLESS_TEXT }
      : scripted;
    return { step, index };
  };
  const usage: LanguageModelV4Usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  const finishReason = (step: ScriptedStep) =>
    step.type !== "text"
      ? { unified: "tool-calls" as const, raw: "tool_calls" }
      : { unified: "stop" as const, raw: "stop" };
  const content = (step: ScriptedStep, index: number): LanguageModelV4Content[] => {
    if (step.type === "text") return [{ type: "text", text: step.text }];
    const calls = step.type === "tool-calls" ? step.calls : [step];
    return calls.map((call, i) => ({
      type: "tool-call",
      toolCallId: call.toolCallId ??
        (step.type === "tool-calls" ? `scripted-call-${index}-${i}` : `scripted-call-${index}`),
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    }));
  };

  return {
    specificationVersion: "v4",
    provider: "scripted",
    modelId: "scripted",
    supportedUrls: {},
    calls,
    // deno-lint-ignore require-await
    async doGenerate(options) {
      const { step, index } = next(options);
      return {
        content: content(step, index),
        finishReason: finishReason(step),
        usage,
        warnings: [],
      };
    },
    // deno-lint-ignore require-await
    async doStream(options) {
      const { step, index } = next(options);
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of content(step, index)) {
        if (part.type === "text") {
          parts.push(
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: part.text },
            { type: "text-end", id: "t" },
          );
        } else if (part.type === "tool-call") {
          parts.push(part);
        }
      }
      parts.push({ type: "finish", finishReason: finishReason(step), usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const p of parts) controller.enqueue(p);
            controller.close();
          },
        }),
      };
    },
  };
}

/** A registry with one model, "scripted", which is also the default. */
export function scriptedRegistry(model: ScriptedModel): ModelRegistry {
  return {
    list: () => [],
    ready: () => Promise.resolve(),
    defaultModelId: () => "scripted",
    get(id) {
      if (id !== "scripted") throw new ModelUnavailableError(id, "unknown", `Unknown "${id}"`);
      return model;
    },
    providerStatus: () => ({
      openai: "missing",
      google: "missing",
      cerebras: "missing",
      openrouter: "missing",
      cloudflare: "missing",
      "local-endpoint": "missing",
      offline: "configured",
    }),
  };
}
