/**
 * OpenTelemetry spans of the chat turn's phases, through Deno's built-in support: run with
 * `OTEL_DENO=true` and Deno registers its own tracer provider, which `@opentelemetry/api`
 * picks up; Deno then also traces `Deno.serve` and `fetch`, so these spans sit inside the
 * request's server span and the provider's HTTP call inside `chat.model_call`. Without
 * `OTEL_DENO` the API's no-op tracer makes every span free.
 *
 * Attributes are ids, counts and names only: never message text, never error messages.
 */
import { type Attributes, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import type {
  LanguageModelV4,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { type LanguageModel, wrapLanguageModel } from "ai";

const tracer = trace.getTracer("site-assistant");

/** The span names of a chat turn, in the order a turn meets them. */
export const TURN_SPANS = {
  limits: "chat.limits",
  history: "chat.history",
  modelCall: "chat.model_call",
  tool: "chat.tool",
  save: "chat.save",
} as const;

/**
 * Runs `fn` inside a new active span named `name`; a rejection marks the span as an error
 * (with the error's class name) and is rethrown.
 *
 * @example
 * const chat = await inSpan(TURN_SPANS.history, () => store.getChat(id), { "chat.id": id });
 */
export function inSpan<T>(
  name: string,
  fn: (span: Span) => Promise<T> | T,
  attributes?: Attributes,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks `span` as failed, naming the error's class only. */
export function failSpan(span: Span, error: unknown): void {
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.name : typeof error,
  });
}

/**
 * `model` with each call in a `chat.model_call` span, from the request until its stream
 * ends (finished, failed or cancelled), with the model and the tokens it reported.
 */
export function tracedModel(model: LanguageModel, modelId: string): LanguageModel {
  if (typeof model === "string" || model.specificationVersion !== "v4") return model;
  return wrapLanguageModel({
    model: model as LanguageModelV4,
    middleware: {
      specificationVersion: "v4",
      wrapStream: ({ doStream }) =>
        tracer.startActiveSpan(TURN_SPANS.modelCall, {
          attributes: { "gen_ai.request.model": modelId },
        }, async (span) => {
          try {
            const result = await doStream();
            // A span nobody records (no OTEL_DENO, or sampled out) needs no extra stream layer,
            // which would cost a read and an enqueue for every part of the answer.
            if (!span.isRecording()) {
              span.end();
              return result;
            }
            return { ...result, stream: endSpanWith(result.stream, span) };
          } catch (error) {
            failSpan(span, error);
            span.end();
            throw error;
          }
        }),
    },
  });
}

/** The same parts; `span` ends when they end, with the usage of the `finish` part. */
function endSpanWith(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  span: Span,
): ReadableStream<LanguageModelV4StreamPart> {
  const reader = stream.getReader();
  let ended = false;
  const end = (error?: unknown) => {
    if (ended) return;
    ended = true;
    if (error !== undefined) failSpan(span, error);
    span.end();
  };
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      let next: ReadableStreamReadResult<LanguageModelV4StreamPart>;
      try {
        next = await reader.read();
      } catch (error) {
        end(error);
        controller.error(error);
        return;
      }
      if (next.done) {
        end();
        controller.close();
        return;
      }
      const part = next.value;
      if (part.type === "finish") setUsage(span, part.usage, part.finishReason.unified);
      if (part.type === "error") failSpan(span, part.error);
      controller.enqueue(part);
    },
    cancel(reason) {
      span.setAttribute("chat.cancelled", true);
      end();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

function setUsage(span: Span, usage: LanguageModelV4Usage, finishReason: string): void {
  const input = usage.inputTokens.total;
  const output = usage.outputTokens.total;
  if (typeof input === "number") span.setAttribute("gen_ai.usage.input_tokens", input);
  if (typeof output === "number") span.setAttribute("gen_ai.usage.output_tokens", output);
  span.setAttribute("gen_ai.response.finish_reasons", [finishReason]);
}
