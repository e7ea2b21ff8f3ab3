/**
 * The offline model makes no HTTP call, so the gateway fetch never records it: this wraps it
 * to record each call as an `UpstreamCall` as well (its word-count tokens, cost 0), so
 * `/api/usage` and `/admin` count every answer, not only those of priced models.
 */
import type {
  LanguageModelV4,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import type { UpstreamCall, UsageRecorder } from "./types.ts";

/** What the wrapper needs: the catalog id it records under, where, and the clock. */
export interface OfflineUsageOptions {
  modelId: string;
  recorder?: UsageRecorder;
  clock?: () => number;
}

/** `model` with every `doGenerate` and `doStream` recorded; `model` itself when no recorder. */
export function recordOfflineUsage(
  model: LanguageModelV4,
  { modelId, recorder, clock = Date.now }: OfflineUsageOptions,
): LanguageModelV4 {
  if (!recorder) return model;
  const record = (
    at: number,
    outcome: UpstreamCall["outcome"],
    usage: LanguageModelV4Usage | null,
    ttfbMs: number | null,
  ) => {
    const call: UpstreamCall = {
      family: "offline",
      provider: "offline",
      model: modelId,
      route: "direct",
      status: outcome === "error" ? 500 : 200,
      ttfbMs,
      totalMs: clock() - at,
      outcome,
      inputTokens: usage?.inputTokens.total ?? null,
      outputTokens: usage?.outputTokens.total ?? null,
      costUsd: 0,
      at,
    };
    Promise.resolve().then(() => recorder.record(call)).catch((error) => {
      console.error("Usage recorder failed:", error);
    });
  };
  return {
    ...model,
    async doGenerate(options) {
      const at = clock();
      try {
        const result = await model.doGenerate(options);
        record(at, "complete", result.usage, clock() - at);
        return result;
      } catch (error) {
        record(at, options.abortSignal?.aborted ? "aborted" : "error", null, null);
        throw error;
      }
    },
    async doStream(options) {
      const at = clock();
      let result;
      try {
        result = await model.doStream(options);
      } catch (error) {
        record(at, options.abortSignal?.aborted ? "aborted" : "error", null, null);
        throw error;
      }
      return { ...result, stream: result.stream.pipeThrough(watch(at, clock, record)) };
    },
  };
}

/** Passes the parts through; records the call once, when it finishes, fails or is cancelled. */
function watch(
  at: number,
  clock: () => number,
  record: (
    at: number,
    outcome: UpstreamCall["outcome"],
    usage: LanguageModelV4Usage | null,
    ttfbMs: number | null,
  ) => void,
): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  let ttfb: number | null = null;
  let usage: LanguageModelV4Usage | null = null;
  let done = false;
  const end = (outcome: UpstreamCall["outcome"]) => {
    if (done) return;
    done = true;
    record(at, outcome, usage, ttfb);
  };
  return new TransformStream({
    transform(part, controller) {
      ttfb ??= clock() - at;
      if (part.type === "finish") usage = part.usage;
      controller.enqueue(part);
    },
    flush() {
      end(usage ? "complete" : "error");
    },
    cancel() {
      end("aborted");
    },
  });
}
