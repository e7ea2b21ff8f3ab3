/**
 * Builds the assistant message from the chunks of a UI message stream (the AI
 * SDK's protocol, `ai` 7), with the same results as the SDK's own
 * `processUIMessageStream`: tests/integration/client_stream_test.ts feeds both
 * the same streams and compares the messages.
 *
 * The SDK's client cannot be bundled without zod (~55 KB gzip, for schemas the
 * browser never runs); this module and lib/client/chat.ts are what the island
 * uses instead. The server builds the answer it saves with it too
 * (lib/chat/turn/run.ts), so KV holds what the client built. It only imports types
 * from `ai`.
 */
import type {
  DynamicToolUIPart,
  FinishReason,
  ReasoningUIPart,
  TextUIPart,
  ToolUIPart,
  UIMessage,
  UIMessageChunk,
} from "ai";
import { parse as parsePartialJson } from "partial-json";
import { appendText } from "./append_text.ts";

/** A chunk broke the protocol (e.g. a delta for a part that was never started). */
export class StreamProtocolError extends Error {
  override name = "StreamProtocolError";
}

type AnyToolPart = ToolUIPart | DynamicToolUIPart;
/** A tool part as a record: the protocol sets fields the SDK's part union types per state. */
interface MutableToolPart {
  type: string;
  toolCallId: string;
  state: string;
  [field: string]: unknown;
}
type Chunk = UIMessageChunk & Record<string, unknown>;
type ChunkOf<T extends UIMessageChunk["type"]> = Extract<UIMessageChunk, { type: T }>;

interface PartialToolCall {
  text: string;
  toolName: string;
  dynamic: boolean;
  title?: string;
  inputEncoding?: string;
  toolMetadata?: unknown;
}

/** What a tool chunk sets on its part. */
interface ToolUpdate {
  toolCallId: string;
  toolName: string;
  dynamic: boolean;
  state: AnyToolPart["state"];
  input?: unknown;
  output?: unknown;
  errorText?: string;
  rawInput?: string;
  inputEncoding?: string;
  preliminary?: boolean;
  providerExecuted?: boolean;
  providerMetadata?: unknown;
  title?: string;
  toolMetadata?: unknown;
}

const isToolPart = (part: UIMessage["parts"][number]): part is AnyToolPart =>
  part.type === "dynamic-tool" || part.type.startsWith("tool-");

const staticToolName = (part: { type: string; toolName?: unknown }): string =>
  part.type === "dynamic-tool" ? String(part.toolName) : part.type.slice("tool-".length);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Deep merge of metadata objects, as the SDK merges `messageMetadata` of later chunks. */
function mergeObjects(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? mergeObjects(out[k], v) : v;
  }
  return out;
}

/** Partial JSON of a streaming tool input, read as far as it goes (undefined while unreadable). */
function readPartialInput(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return parsePartialJson(text);
  } catch {
    return undefined;
  }
}

/**
 * The message under construction. `apply` mutates it in place and says whether
 * anything visible changed; callers snapshot it when they publish it.
 */
export class MessageBuilder<M extends UIMessage = UIMessage> {
  readonly message: M;
  finishReason: FinishReason | undefined;
  private text = new Map<string, TextUIPart>();
  private reasoning = new Map<string, ReasoningUIPart>();
  private partialTools = new Map<string, PartialToolCall>();

  /**
   * `last`: the message to continue (an assistant message being resumed or
   * completed after a tool approval), or undefined to start a new one with `id`.
   */
  constructor(last: M | undefined, id: string) {
    this.message = last?.role === "assistant"
      ? last
      : { id, role: "assistant", metadata: undefined, parts: [] } as unknown as M;
    // Tool inputs that were still streaming when the message was cut go on from where they were.
    for (const part of this.stepParts()) {
      if (!isToolPart(part) || part.state !== "input-streaming") continue;
      const p = part as unknown as MutableToolPart;
      this.partialTools.set(part.toolCallId, {
        text: typeof p.rawInput === "string" ? p.rawInput : "",
        toolName: staticToolName(p),
        dynamic: part.type === "dynamic-tool",
        title: p.title as string | undefined,
        inputEncoding: p.inputEncoding as string | undefined,
        toolMetadata: p.toolMetadata,
      });
    }
  }

  /** Parts since the last step start. */
  private stepParts(): UIMessage["parts"] {
    const parts = this.message.parts;
    let i = parts.length - 1;
    while (i >= 0 && parts[i].type !== "step-start") i--;
    return parts.slice(i + 1);
  }

  private findTool(toolCallId: string): MutableToolPart {
    const inStep = this.stepParts().find((p) => isToolPart(p) && p.toolCallId === toolCallId);
    const part = inStep ??
      this.message.parts.findLast((p) => isToolPart(p) && p.toolCallId === toolCallId);
    if (!part) throw new StreamProtocolError(`No tool call with id "${toolCallId}".`);
    return part as unknown as MutableToolPart;
  }

  private updateTool(u: ToolUpdate, existing?: MutableToolPart): void {
    const part = existing ??
      this.stepParts().find((p) =>
        isToolPart(p) && p.toolCallId === u.toolCallId &&
        (u.dynamic ? p.type === "dynamic-tool" : p.type !== "dynamic-tool")
      ) as unknown as MutableToolPart | undefined;
    const result = u.state === "output-available" || u.state === "output-error";
    if (part) {
      part.state = u.state;
      if (u.dynamic) part.toolName = u.toolName;
      else part.type = `tool-${u.toolName}`;
      part.input = u.input;
      part.output = u.output;
      part.errorText = u.errorText;
      part.rawInput = u.rawInput;
      if (u.inputEncoding != null) part.inputEncoding = u.inputEncoding;
      else delete part.inputEncoding;
      part.preliminary = u.preliminary;
      if (u.title !== undefined) part.title = u.title;
      if (u.toolMetadata !== undefined) part.toolMetadata = u.toolMetadata;
      part.providerExecuted = u.providerExecuted ?? part.providerExecuted;
      if (u.providerMetadata != null) {
        part[result ? "resultProviderMetadata" : "callProviderMetadata"] = u.providerMetadata;
      }
      return;
    }
    const fresh: Record<string, unknown> = {
      type: u.dynamic ? "dynamic-tool" : `tool-${u.toolName}`,
      ...(u.dynamic ? { toolName: u.toolName } : { rawInput: u.rawInput }),
      toolCallId: u.toolCallId,
      state: u.state,
      title: u.title,
      input: u.input,
      output: u.output,
      errorText: u.errorText,
      providerExecuted: u.providerExecuted,
      preliminary: u.preliminary,
      ...(u.toolMetadata !== undefined ? { toolMetadata: u.toolMetadata } : {}),
      ...(u.inputEncoding != null ? { inputEncoding: u.inputEncoding } : {}),
      ...(u.providerMetadata != null
        ? { [result ? "resultProviderMetadata" : "callProviderMetadata"]: u.providerMetadata }
        : {}),
    };
    this.message.parts.push(fresh as unknown as M["parts"][number]);
  }

  private mergeMetadata(metadata: unknown): boolean {
    if (metadata == null) return false;
    const m = this.message as { metadata?: unknown };
    m.metadata = m.metadata != null ? mergeObjects(m.metadata, metadata) : metadata;
    return true;
  }

  private push(part: Record<string, unknown>): void {
    this.message.parts.push(part as unknown as M["parts"][number]);
  }

  /**
   * Applies one chunk. Returns whether the message changed; throws
   * StreamProtocolError on a chunk that contradicts the ones before it.
   * `error` chunks are the caller's to handle (they end the turn).
   */
  apply(raw: UIMessageChunk): boolean {
    switch (raw.type) {
      case "text-start":
      case "reasoning-start":
        return this.startText(raw);
      case "text-delta":
      case "reasoning-delta":
        return this.appendDelta(raw);
      case "text-end":
      case "reasoning-end":
        return this.endText(raw);
      case "custom":
      case "file":
      case "reasoning-file":
      case "source-url":
      case "source-document":
      case "steering-message":
        return this.pushContent(raw);
      case "tool-input-start":
        return this.startToolInput(raw);
      case "tool-input-delta":
        return this.appendToolInput(raw);
      case "tool-input-available":
      case "tool-input-error":
        return this.completeToolInput(raw);
      case "tool-approval-request":
        return this.requestApproval(raw);
      case "tool-approval-response":
        return this.respondToApproval(raw);
      case "tool-output-denied":
        this.findTool(raw.toolCallId).state = "output-denied";
        return true;
      case "tool-output-available":
      case "tool-output-error":
        return this.completeToolOutput(raw);
      case "start-step":
        this.push({ type: "step-start" });
        return false;
      case "reset-step":
        return this.resetStep();
      case "start": {
        if (raw.messageId != null) this.message.id = raw.messageId;
        const merged = this.mergeMetadata(raw.messageMetadata);
        return raw.messageId != null || merged;
      }
      case "finish":
        if (raw.finishReason != null) this.finishReason = raw.finishReason;
        return this.mergeMetadata(raw.messageMetadata);
      case "message-metadata":
        return this.mergeMetadata(raw.messageMetadata);
      case "finish-step":
      case "abort":
      case "error":
        return false;
      default:
        return this.applyData(raw);
    }
  }

  private startText(raw: ChunkOf<"text-start" | "reasoning-start">): boolean {
    const reasoning = raw.type === "reasoning-start";
    const part = reasoning
      ? { type: "reasoning", id: raw.id, text: "", providerMetadata: raw.providerMetadata }
      : { type: "text", text: "", providerMetadata: raw.providerMetadata };
    (part as Record<string, unknown>).state = "streaming";
    if (reasoning) this.reasoning.set(raw.id, part as ReasoningUIPart);
    else this.text.set(raw.id, part as TextUIPart);
    this.push(part);
    return true;
  }

  private appendDelta(raw: ChunkOf<"text-delta" | "reasoning-delta">): boolean {
    const part = (raw.type === "text-delta" ? this.text : this.reasoning).get(raw.id);
    if (!part) {
      throw new StreamProtocolError(`${raw.type} for a part never started: "${raw.id}".`);
    }
    part.text = appendText(part.text, raw.delta);
    part.providerMetadata = raw.providerMetadata ?? part.providerMetadata;
    return true;
  }

  private endText(raw: ChunkOf<"text-end" | "reasoning-end">): boolean {
    const c = raw as Chunk;
    const map = raw.type === "text-end" ? this.text : this.reasoning;
    const part = map.get(raw.id);
    if (!part) {
      throw new StreamProtocolError(`${raw.type} for a part never started: "${raw.id}".`);
    }
    part.state = "done";
    if (raw.type === "text-end" && c.citations != null) {
      (part as unknown as Record<string, unknown>).citations = c.citations;
    }
    part.providerMetadata = raw.providerMetadata ?? part.providerMetadata;
    map.delete(raw.id);
    return true;
  }

  /** Parts that arrive whole: custom, files, sources, steering messages. */
  private pushContent(
    raw: ChunkOf<
      | "custom"
      | "file"
      | "reasoning-file"
      | "source-url"
      | "source-document"
      | "steering-message"
    >,
  ): boolean {
    const c = raw as Chunk;
    switch (raw.type) {
      case "custom":
        this.push({ type: "custom", kind: c.kind, providerMetadata: c.providerMetadata });
        break;
      case "file":
      case "reasoning-file":
        this.push({
          type: raw.type,
          mediaType: c.mediaType,
          url: c.url,
          ...(c.providerMetadata != null ? { providerMetadata: c.providerMetadata } : {}),
        });
        break;
      case "source-url":
        this.push({
          type: "source-url",
          sourceId: raw.sourceId,
          url: raw.url,
          title: raw.title,
          providerMetadata: raw.providerMetadata,
        });
        break;
      case "source-document":
        this.push({
          type: "source-document",
          sourceId: raw.sourceId,
          mediaType: raw.mediaType,
          title: raw.title,
          filename: raw.filename,
          providerMetadata: raw.providerMetadata,
        });
        break;
      case "steering-message":
        this.push({ type: "steering-message", id: c.id, parts: c.parts });
        break;
    }
    return true;
  }

  private startToolInput(raw: ChunkOf<"tool-input-start">): boolean {
    const c = raw as Chunk;
    const dynamic = !!raw.dynamic;
    const title = c.title as string | undefined;
    const inputEncoding = c.inputEncoding as string | undefined;
    this.partialTools.set(raw.toolCallId, {
      text: "",
      toolName: raw.toolName,
      dynamic,
      title,
      inputEncoding,
      toolMetadata: c.toolMetadata,
    });
    this.updateTool({
      toolCallId: raw.toolCallId,
      toolName: raw.toolName,
      dynamic,
      state: "input-streaming",
      inputEncoding,
      input: undefined,
      providerExecuted: raw.providerExecuted,
      title,
      toolMetadata: c.toolMetadata,
      providerMetadata: raw.providerMetadata,
    });
    return true;
  }

  private appendToolInput(raw: ChunkOf<"tool-input-delta">): boolean {
    const call = this.partialTools.get(raw.toolCallId);
    if (!call) {
      throw new StreamProtocolError(
        `tool-input-delta for a call never started: "${raw.toolCallId}".`,
      );
    }
    call.text += raw.inputTextDelta;
    this.updateTool({
      toolCallId: raw.toolCallId,
      toolName: call.toolName,
      dynamic: call.dynamic,
      state: "input-streaming",
      inputEncoding: call.inputEncoding,
      input: call.inputEncoding === "text" ? call.text : readPartialInput(call.text),
      rawInput: call.text,
      title: call.title,
      toolMetadata: call.toolMetadata,
    });
    return true;
  }

  private completeToolInput(raw: ChunkOf<"tool-input-available" | "tool-input-error">): boolean {
    const c = raw as Chunk;
    const error = raw.type === "tool-input-error";
    const existing = error
      ? this.stepParts().find((p) => isToolPart(p) && p.toolCallId === raw.toolCallId)
      : undefined;
    this.updateTool({
      toolCallId: raw.toolCallId,
      toolName: raw.toolName,
      dynamic: existing ? existing.type === "dynamic-tool" : !!raw.dynamic,
      state: error ? "output-error" : "input-available",
      input: raw.input,
      errorText: error ? raw.errorText : undefined,
      providerExecuted: raw.providerExecuted,
      providerMetadata: raw.providerMetadata,
      title: error ? undefined : c.title as string | undefined,
      toolMetadata: c.toolMetadata,
    });
    return true;
  }

  private requestApproval(raw: ChunkOf<"tool-approval-request">): boolean {
    const c = raw as Chunk;
    const part = this.findTool(raw.toolCallId);
    part.state = "approval-requested";
    part.approval = {
      id: raw.approvalId,
      ...(c.approvalDescriptor != null ? { descriptor: c.approvalDescriptor } : {}),
      ...(Object.hasOwn(c, "inputSchemaInput") ? { inputSchemaInput: c.inputSchemaInput } : {}),
      ...(c.reason != null ? { requestReason: c.reason } : {}),
      ...(c.isAutomatic === true ? { isAutomatic: true } : {}),
      ...(c.signature != null ? { signature: c.signature } : {}),
    };
    return true;
  }

  private respondToApproval(raw: ChunkOf<"tool-approval-response">): boolean {
    const c = raw as Chunk;
    const approvalId = c.approvalId as string;
    const part = this.message.parts.find((p) =>
      isToolPart(p) && (p as { approval?: { id: string } }).approval?.id === approvalId
    ) as unknown as MutableToolPart | undefined;
    if (!part) throw new StreamProtocolError(`No tool call awaits approval "${approvalId}".`);
    part.state = "approval-responded";
    part.approval = {
      ...(part.approval as object ?? { id: approvalId }),
      id: approvalId,
      approved: c.approved,
      ...(c.reason != null ? { reason: c.reason } : {}),
    };
    if (c.providerExecuted != null) part.providerExecuted = c.providerExecuted;
    if (c.providerMetadata != null) part.callProviderMetadata = c.providerMetadata;
    return true;
  }

  private completeToolOutput(raw: ChunkOf<"tool-output-available" | "tool-output-error">): boolean {
    const c = raw as Chunk;
    const part = this.findTool(raw.toolCallId);
    const ok = raw.type === "tool-output-available";
    const dynamic = part.type === "dynamic-tool";
    this.updateTool({
      toolCallId: raw.toolCallId,
      toolName: staticToolName(part),
      dynamic,
      state: ok ? "output-available" : "output-error",
      input: part.input,
      ...(ok ? { output: raw.output, preliminary: raw.preliminary } : {
        errorText: raw.errorText,
        ...(dynamic ? {} : { rawInput: part.rawInput as string }),
      }),
      providerExecuted: raw.providerExecuted,
      providerMetadata: raw.providerMetadata,
      title: part.title as string | undefined,
      toolMetadata: c.toolMetadata ?? part.toolMetadata,
    }, part);
    return true;
  }

  private resetStep(): boolean {
    const step = this.stepParts().length;
    this.text.clear();
    this.reasoning.clear();
    this.partialTools.clear();
    if (step === 0) return false;
    this.message.parts.splice(this.message.parts.length - step, step);
    return true;
  }

  /** `data-*` parts: a transient one is not kept; one with a known id replaces its data. */
  private applyData(raw: UIMessageChunk): boolean {
    if (!raw.type.startsWith("data-")) return false;
    const data = raw as {
      type: `data-${string}`;
      id?: string;
      data: unknown;
      transient?: boolean;
    };
    if (data.transient) return false;
    const existing = data.id != null
      ? this.message.parts.find((p) =>
        p.type === data.type && (p as { id?: string }).id === data.id
      )
      : undefined;
    if (existing) (existing as { data: unknown }).data = data.data;
    else this.push(data as unknown as Record<string, unknown>);
    return true;
  }
}
