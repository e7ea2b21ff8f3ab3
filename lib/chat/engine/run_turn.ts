/**
 * The chat engine: one assistant turn as a loop of model calls and tool
 * executions, written straight out as UI message stream chunks.
 *
 * Each model call is prepared with the AI SDK's own functions (prompt conversion, tool
 * preparation, tool-call parsing and validation) and streamed from the real provider
 * adapter (lib/chat/engine/model_call.ts); the loop around it is ours. `streamText` +
 * `toUIMessageStream` + `createUIMessageStream` do the same with about ten
 * more web-stream hops per chunk, and a turn has hundreds of chunks: over the
 * adapter's own CPU per turn, the SDK's loop adds about three times what this
 * one does (tests/bench/engine_bench.ts runs both in the same process).
 *
 * Chunks go to a synchronous sink as they are made: no queue and no promise
 * per chunk beyond the provider stream's own read.
 *
 * The step bound: the last allowed model call gets no tools (`toolChoice: "none"`) and an
 * instruction to answer now, so a turn that reaches `maxSteps` still ends with words
 * instead of a tool call nobody reads.
 *
 * Approvals, as the SDK's loop does them: a call that needs the visitor's approval is
 * never executed; it gets a `tool-approval-request` chunk, the step's other calls still
 * run, and the turn ends after that step, awaiting approval. A later turn whose messages
 * end with the approval responses first carries them out (lib/chat/engine/approval_responses.ts),
 * then calls the model again.
 */
import {
  type FinishReason,
  type JSONValue,
  type LanguageModel,
  type LanguageModelStreamPart,
  type LanguageModelUsage,
  type ModelMessage,
  type Tool,
  type ToolSet,
} from "ai";
import { DEFAULT_MAX_OUTPUT_TOKENS, type ToolCallLimits } from "@/lib/config.ts";
import { appendText } from "@/lib/protocol/append_text.ts";
import { type ChunkSink, toUiChunk } from "./ui_chunks.ts";
import { startModelCall } from "./model_call.ts";
import { type StepContent, stepMessages } from "./step_messages.ts";
import { executeToolCall, type ToolOutcome } from "./tool_calls.ts";
import { answerApprovals, collectApprovals } from "./approval_responses.ts";
import { type PrefetchCall, runPrefetchStep } from "./prefetch_step.ts";
import { newApprovalId } from "../approvals.ts";
import { type CallBudget, callBudget } from "./call_budget.ts";

/** What a turn needs. */
export interface RunTurnOptions {
  model: LanguageModel;
  instructions: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /**
   * Model calls at most (each tool round is one more call). The last one is made without
   * tools and told to answer (see `STEP_LIMIT_INSTRUCTION`).
   */
  maxSteps: number;
  /** Most tokens each model call may write (default `DEFAULT_MAX_OUTPUT_TOKENS`, 4096). */
  maxOutputTokens?: number;
  /**
   * Tool calls a step and the turn may make, and how many run at once (default
   * `DEFAULT_TOOL_CALL_LIMITS`: 8, 24, 4). A call over a bound gets a tool error and never runs.
   */
  toolCalls?: ToolCallLimits;
  abortSignal: AbortSignal;
  /** Id of the assistant message being streamed. */
  messageId: string;
  /** Metadata sent with `start`. */
  startMetadata?: unknown;
  /** Metadata sent with `finish`, from the turn's totals. */
  finishMetadata?: (end: TurnTotals) => unknown;
  /** The visitor-facing text of an error (and where it gets logged). */
  errorText: (error: unknown, where: "model" | "tool") => string;
  /**
   * Whether a valid call of one of `tools` waits for the visitor's approval: the approval's
   * id and what the card shows, or null to run it at once. A tool that sets `needsApproval`
   * waits whatever this says (with a fresh id and no descriptor when this gives none).
   * A refusal (or a rejection) fails that call alone with a tool error the model reads:
   * the call never runs and never waits, and the turn goes on.
   */
  toolApproval?: (call: ToolApprovalCall) => Promise<ToolApprovalGrant | ToolRefusal | null>;
  /**
   * A call of one of `tools` the turn makes itself before the first model call, streamed
   * and shown to the model as a step of its own (lib/chat/engine/prefetch_step.ts). It is
   * not a model call: `maxSteps` still bounds the model calls. Ignored when `messages` end
   * with approval responses (a continued answer).
   */
  prefetch?: PrefetchCall;
}

/** A call of the model that may need approval (its input is valid for the tool). */
export interface ToolApprovalCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** An approval to ask the visitor for. */
export interface ToolApprovalGrant {
  approvalId: string;
  /** Sent as the chunk's `approvalDescriptor`; the message part keeps it as `approval.descriptor`. */
  descriptor?: JSONValue;
}

/** A call that can be neither run nor shown for approval (e.g. no request can be built from it). */
export interface ToolRefusal {
  /** What the call fails with; the model reads its message, the visitor the generic text. */
  refused: Error;
}

/** Totals over the turn's model calls. */
export interface TurnTotals {
  finishReason: FinishReason;
  usage: LanguageModelUsage;
  steps: number;
  /** The last call was the forced tool-less one of step `maxSteps`: the bound was reached. */
  stepLimitReached: boolean;
  /** The last step asked the visitor to approve a call: the turn waits for the answer. */
  awaitingApproval: boolean;
  /**
   * The model's stream reported an error (the provider's error event, not a dropped
   * connection, which throws): the turn ends like the SDK's loop, but the answer is cut.
   */
  failed: boolean;
}

/** Added to the instructions of the last allowed step, which has no tools. */
export const STEP_LIMIT_INSTRUCTION =
  "You have reached the limit of steps for this answer: no tools are available any more. " +
  "Answer the visitor now with what you already have; if it is not enough, say so briefly.";

/** The instructions of the last allowed step. */
export function withStepLimitInstruction(instructions: string): string {
  return instructions ? `${instructions}\n\n${STEP_LIMIT_INSTRUCTION}` : STEP_LIMIT_INSTRUCTION;
}

/**
 * How the turn ended. A stopped or failed turn still carries its usage: the calls that
 * finished, plus an estimate for the call cut off (providers bill streamed tokens, and
 * the visitor's daily budget must count them too).
 */
export type TurnEnd =
  | { kind: "finish"; totals: TurnTotals }
  | { kind: "abort"; usage: LanguageModelUsage }
  | { kind: "error"; error: unknown; usage: LanguageModelUsage };

/** The model call in flight, measured for the estimate of a call that never reports usage. */
interface CallMeter {
  promptChars: number;
  streamedChars: number;
  /** Its usage arrived: nothing to estimate. */
  reported: boolean;
}

/**
 * Runs the turn, writing its chunks to `emit`; resolves when the last one was written.
 * When `messages` end with approval responses, those are carried out first. Throws, before
 * anything is sent, when a response answers no approval request of `messages`.
 */
export async function runTurn(options: RunTurnOptions, emit: ChunkSink): Promise<TurnEnd> {
  const { abortSignal } = options;
  const messages = [...options.messages];
  const approvals = collectApprovals(messages);
  let usage = emptyUsage();
  let finishReason: FinishReason = "other";
  let steps = 0;
  let stepLimitReached = false;
  let awaitingApproval = false;
  let failed = false;
  const meter: CallMeter = { promptChars: 0, streamedChars: 0, reported: true };
  const budget = callBudget(options.toolCalls);
  emit(
    options.startMetadata !== undefined
      ? { type: "start", messageId: options.messageId, messageMetadata: options.startMetadata }
      : { type: "start", messageId: options.messageId },
  );
  try {
    if (approvals.approved.length > 0 || approvals.denied.length > 0) {
      const results = await answerApprovals(approvals, messages, { ...options, budget }, emit);
      if (results) messages.push(results);
      if (abortSignal.aborted) throw abortSignal.reason;
    } else if (options.prefetch) {
      const errorText = (error: unknown) => options.errorText(error, "tool");
      const context = { messages, abortSignal, errorText };
      messages.push(...await runPrefetchStep(options.prefetch, options.tools, context, emit));
      if (abortSignal.aborted) throw abortSignal.reason;
    }
    while (steps < options.maxSteps) {
      steps++;
      stepLimitReached = steps === options.maxSteps;
      emit({ type: "start-step" });
      const step = await runStep(options, messages, emit, stepLimitReached, { meter, budget });
      usage = addUsage(usage, step.usage);
      finishReason = step.finishReason;
      emit({ type: "finish-step" });
      failed = step.failed;
      if (failed) break;
      // Nothing more until the visitor answers.
      awaitingApproval = step.awaitingApproval;
      if (awaitingApproval) break;
      // The next call needs every tool call answered here; a tool without `execute` is the
      // client's to answer, in a later turn.
      const answered = step.content.calls.length > 0 &&
        step.content.calls.every((c) => c.outcome !== undefined);
      if (!answered) break;
      messages.push(...stepMessages(step.content));
    }
  } catch (error) {
    const spent = addUsage(usage, estimatedUsage(meter));
    if (abortSignal.aborted) {
      emit({ type: "abort" });
      return { kind: "abort", usage: spent };
    }
    emit({ type: "error", errorText: options.errorText(error, "model") });
    return { kind: "error", error, usage: spent };
  }
  if (abortSignal.aborted) {
    emit({ type: "abort" });
    return { kind: "abort", usage };
  }
  const totals = { finishReason, usage, steps, stepLimitReached, awaitingApproval, failed };
  const metadata = options.finishMetadata?.(totals);
  emit(
    metadata !== undefined
      ? { type: "finish", finishReason, messageMetadata: metadata }
      : { type: "finish", finishReason },
  );
  return { kind: "finish", totals };
}

interface StepResult {
  content: StepContent;
  usage: LanguageModelUsage;
  finishReason: FinishReason;
  /** The model stream reported an error: no further step. */
  failed: boolean;
  /** A call of the step waits for the visitor's approval. */
  awaitingApproval: boolean;
}

/**
 * One model call, its tool calls executed as they arrive; resolves once all of them answered.
 * The `last` step has no tools and is told to answer.
 */
async function runStep(
  options: RunTurnOptions,
  messages: ModelMessage[],
  emit: ChunkSink,
  last: boolean,
  turn: { meter: CallMeter; budget: CallBudget },
): Promise<StepResult> {
  const { meter } = turn;
  const tools: ToolSet = last ? {} : options.tools;
  meter.promptChars = options.instructions.length + JSON.stringify(messages).length;
  meter.streamedChars = 0;
  meter.reported = false;
  const call = await startModelCall({
    model: options.model,
    instructions: last ? withStepLimitInstruction(options.instructions) : options.instructions,
    messages,
    tools,
    // With "none" a tool call the model makes regardless is withheld and fails the step.
    ...(last ? { toolChoice: "none" as const } : {}),
    maxOutputTokens: options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    abortSignal: options.abortSignal,
  });
  const step = new StepState(options, messages, tools, emit, turn);
  while (true) {
    const { done, value } = await call.reader.read();
    if (done) break;
    // Most parts translate to one part at once; a tool call (its input checked) takes a promise.
    let parts = call.translate(value);
    if (parts === undefined) continue;
    if (parts instanceof Promise) parts = await parts;
    if (!Array.isArray(parts)) {
      const pending = step.handle(parts as LanguageModelStreamPart<ToolSet>);
      if (pending) await pending;
      continue;
    }
    for (const part of parts as readonly LanguageModelStreamPart<ToolSet>[]) {
      const pending = step.handle(part);
      if (pending) await pending;
    }
  }
  await Promise.all(step.running);
  return step.result();
}

/** What one step has seen so far, and what each part of its model call does. */
class StepState {
  readonly content: StepContent = { parts: [], calls: [] };
  readonly running: Promise<void>[] = [];
  /** Visitor-facing error text of calls whose input was invalid, by call id. */
  readonly #invalid = new Map<string, string>();
  #usage = emptyUsage();
  #finishReason: FinishReason = "other";
  #failed = false;
  #awaitingApproval = false;
  /** Calls of this step that took a place in the budget. */
  #made = 0;
  /** The visitor's text of the step's first call over a bound, reused for the rest. */
  #overBound: string | undefined;
  readonly meter: CallMeter;
  readonly budget: CallBudget;

  constructor(
    readonly options: RunTurnOptions,
    readonly messages: ModelMessage[],
    readonly tools: ToolSet,
    readonly emit: ChunkSink,
    turn: { meter: CallMeter; budget: CallBudget },
  ) {
    this.meter = turn.meter;
    this.budget = turn.budget;
  }

  result(): StepResult {
    return {
      content: this.content,
      usage: this.#usage,
      finishReason: this.#finishReason,
      failed: this.#failed,
      awaitingApproval: this.#awaitingApproval,
    };
  }

  /** Handles one part; a promise only when it must be waited for (a tool call's approval). */
  handle(part: LanguageModelStreamPart<ToolSet>): Promise<void> | undefined {
    const { emit, options } = this;
    collect(this.content, part);
    switch (part.type) {
      case "text-delta":
      case "reasoning-delta":
        this.meter.streamedChars += part.text.length;
        break;
      case "tool-input-delta":
        this.meter.streamedChars += part.delta.length;
        break;
      case "tool-call":
        return this.#toolCall(part);
      case "tool-result":
        // The result of a tool the provider ran itself.
        emit({
          type: "tool-output-available",
          toolCallId: part.toolCallId,
          output: part.output ?? null,
          providerExecuted: true,
        });
        return;
      case "tool-error":
        // A provider-run tool that failed, or a call of ours whose input was invalid.
        emit({
          type: "tool-output-error",
          toolCallId: part.toolCallId,
          errorText: this.#invalid.get(part.toolCallId) ?? options.errorText(part.error, "tool"),
          ...(part.providerExecuted ? { providerExecuted: true } : {}),
          ...(part.dynamic ? { dynamic: true } : {}),
        });
        return;
      case "model-call-end":
        this.meter.reported = true;
        this.#usage = part.usage;
        this.#finishReason = part.finishReason;
        return;
      case "error":
        this.#failed = true;
        if (options.abortSignal.aborted) throw part.error;
        emit({ type: "error", errorText: options.errorText(part.error, "model") });
        return;
    }
    const chunk = toUiChunk(part);
    if (chunk) emit(chunk);
  }

  /** A tool call: announced, then executed at once, or held for the visitor's approval. */
  #toolCall(part: Extract<LanguageModelStreamPart<ToolSet>, { type: "tool-call" }>) {
    const { emit, options, tools } = this;
    if (part.providerExecuted) {
      this.#providerExecuted(part);
      return;
    }
    const call = {
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      input: part.input,
      providerMetadata: part.providerMetadata,
      outcome: undefined as ToolOutcome | undefined,
    };
    this.content.calls.push(call);
    const dynamic = part.dynamic ? { dynamic: true as const } : {};
    if (part.invalid) {
      // The model sees why its call failed (lib/chat/engine/step_messages.ts) and may
      // correct it in the next step; the visitor sees the generic text.
      const errorText = options.errorText(part.error, "tool");
      call.outcome = { ok: false, error: part.error };
      this.#invalid.set(part.toolCallId, errorText);
      emit({
        type: "tool-input-error",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
        errorText,
        ...dynamic,
      });
      // Its `tool-error` part follows, from the call's translation.
      return;
    }
    emit({
      type: "tool-input-available",
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      input: part.input,
      ...(part.providerMetadata != null ? { providerMetadata: part.providerMetadata } : {}),
      ...dynamic,
    });
    const tool = Object.hasOwn(tools, part.toolName) ? tools[part.toolName] : undefined;
    if (!tool) return;
    // Over the step's or the turn's bound: refused before anything runs or asks the visitor.
    const refused = this.budget.take(this.#made);
    if (refused) {
      // Hundreds of calls over a bound make one log line, not one each.
      this.#overBound ??= options.errorText(refused, "tool");
      this.#fail(call, refused, dynamic, this.#overBound);
      return;
    }
    this.#made++;
    return approvalFor(options, tool, part, this.messages).then((approval) => {
      if (approval && "refused" in approval) return this.#fail(call, approval.refused, dynamic);
      if (approval) {
        // Never executed in this turn: the visitor answers first.
        this.#awaitingApproval = true;
        emit({
          type: "tool-approval-request",
          toolCallId: part.toolCallId,
          approvalId: approval.approvalId,
          ...(approval.descriptor !== undefined ? { approvalDescriptor: approval.descriptor } : {}),
        });
        return;
      }
      if (tool.execute) {
        const run = () => execute(options, tool, call, this.messages, emit, dynamic);
        this.running.push(this.budget.run(run));
      }
    }, (error: unknown) => {
      // The decision read the model's input and threw on it: bad model output fails this
      // call (answered, so the next prompt is valid and the saved chat stays usable), not
      // the turn.
      this.#fail(call, error, dynamic);
    });
  }

  /** A call the provider ran: its result comes in this same response, nothing to answer. */
  #providerExecuted(part: Extract<LanguageModelStreamPart<ToolSet>, { type: "tool-call" }>) {
    this.emit({
      type: "tool-input-available",
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      input: part.input,
      providerExecuted: true,
      ...(part.providerMetadata != null ? { providerMetadata: part.providerMetadata } : {}),
      ...(part.dynamic ? { dynamic: true as const } : {}),
    });
  }

  /** Ends `call` with `error` without running it (the visitor sees `errorText`, else the usual). */
  #fail(
    call: StepContent["calls"][number],
    error: unknown,
    dynamic: { dynamic?: true },
    errorText = this.options.errorText(error, "tool"),
  ): void {
    call.outcome = { ok: false, error };
    this.emit({ type: "tool-output-error", toolCallId: call.toolCallId, errorText, ...dynamic });
  }
}

/** Runs `call` with `tool`, streaming its output or error; records its outcome on `call`. */
async function execute(
  options: RunTurnOptions,
  tool: Tool,
  call: StepContent["calls"][number],
  messages: ModelMessage[],
  emit: ChunkSink,
  dynamic: { dynamic?: true },
): Promise<void> {
  const outcome = await executeToolCall(tool, call, {
    messages,
    abortSignal: options.abortSignal,
  });
  call.outcome = outcome;
  const { toolCallId } = call;
  emit(
    outcome.ok
      ? { type: "tool-output-available", toolCallId, output: outcome.output, ...dynamic }
      : {
        type: "tool-output-error",
        toolCallId,
        errorText: options.errorText(outcome.error, "tool"),
        ...dynamic,
      },
  );
}

/**
 * The approval a valid call waits for, or null when it runs at once: the caller's
 * `toolApproval` decides; a tool that sets `needsApproval` (as the SDK reads it) waits regardless.
 */
async function approvalFor(
  options: RunTurnOptions,
  tool: Tool,
  call: ToolApprovalCall,
  messages: ModelMessage[],
): Promise<ToolApprovalGrant | ToolRefusal | null> {
  const { toolCallId, toolName, input } = call;
  const granted = await options.toolApproval?.({ toolCallId, toolName, input });
  if (granted) return granted;
  const needs = typeof tool.needsApproval === "function"
    ? await tool.needsApproval(input, { toolCallId, messages, context: undefined })
    : tool.needsApproval === true;
  return needs ? { approvalId: newApprovalId() } : null;
}

/** Keeps what the next step's prompt needs: text, reasoning (tool calls are kept by the caller). */
function collect(content: StepContent, part: LanguageModelStreamPart<ToolSet>): void {
  const last = content.parts.at(-1);
  switch (part.type) {
    case "text-delta":
    case "reasoning-delta": {
      const type = part.type === "text-delta" ? "text" : "reasoning";
      if (last?.type === type && last.id === part.id) {
        last.text = appendText(last.text, part.text);
        if (part.providerMetadata != null) last.providerMetadata = part.providerMetadata;
      } else {
        content.parts.push({
          type,
          id: part.id,
          text: part.text,
          providerMetadata: part.providerMetadata,
        });
      }
      return;
    }
    case "reasoning-end":
    case "text-end":
      if (
        last && last.type !== "tool-call" && last.id === part.id && part.providerMetadata != null
      ) {
        last.providerMetadata = part.providerMetadata;
      }
      return;
    case "tool-call":
      // A call the provider ran itself is no call of the step's to answer.
      if (!part.providerExecuted) {
        content.parts.push({ type: "tool-call", toolCallId: part.toolCallId });
      }
      return;
  }
}

function emptyUsage(): LanguageModelUsage {
  return {
    inputTokens: undefined,
    inputTokenDetails: {
      noCacheTokens: undefined,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
    },
    outputTokens: undefined,
    outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
    totalTokens: undefined,
  };
}

/** Sums two counts; undefined only when both are. */
function add(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}

/**
 * About four characters a token, the common rule of thumb for the estimate of a call cut
 * off before its usage arrived (none when it did).
 */
function estimatedUsage(meter: CallMeter): LanguageModelUsage {
  if (meter.reported) return emptyUsage();
  const inputTokens = Math.ceil(meter.promptChars / 4);
  const outputTokens = Math.ceil(meter.streamedChars / 4);
  return { ...emptyUsage(), inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

function addUsage(a: LanguageModelUsage, b: LanguageModelUsage): LanguageModelUsage {
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    inputTokenDetails: {
      noCacheTokens: add(a.inputTokenDetails?.noCacheTokens, b.inputTokenDetails?.noCacheTokens),
      cacheReadTokens: add(
        a.inputTokenDetails?.cacheReadTokens,
        b.inputTokenDetails?.cacheReadTokens,
      ),
      cacheWriteTokens: add(
        a.inputTokenDetails?.cacheWriteTokens,
        b.inputTokenDetails?.cacheWriteTokens,
      ),
    },
    outputTokens: add(a.outputTokens, b.outputTokens),
    outputTokenDetails: {
      textTokens: add(a.outputTokenDetails?.textTokens, b.outputTokenDetails?.textTokens),
      reasoningTokens: add(
        a.outputTokenDetails?.reasoningTokens,
        b.outputTokenDetails?.reasoningTokens,
      ),
    },
    totalTokens: add(a.totalTokens, b.totalTokens),
  };
}
