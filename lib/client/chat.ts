/**
 * The island's chat client: sends a turn to POST /api/chat, reads the UI
 * message stream into messages (lib/protocol/message_builder.ts) and keeps the
 * conversation in Preact signals. Same behaviour as the AI SDK's `AbstractChat`
 * with `DefaultChatTransport` for what this app uses (send, edit-resend,
 * regenerate, stop, resume), at a fraction of its bundle: the SDK's client pulls
 * in zod for schemas the browser never runs. tests/integration/client_stream_test.ts
 * holds it to the SDK's results.
 */
import { batch, signal } from "@preact/signals";
import type { ChatStatus, FinishReason, UIMessage, UIMessageChunk } from "ai";
import { MessageBuilder } from "@/lib/protocol/message_builder.ts";
import { readChunks } from "./ui_stream.ts";
import {
  type ApprovalDecision,
  browserCalls,
  descriptorOf,
  responseOf,
  toolParts,
} from "./approval.ts";
import type { ApprovalResponse, ToolOutput } from "@/lib/protocol/approval.ts";

/** What starts a request; the server's `trigger` field. */
export type ChatTrigger =
  | "submit-message"
  | "regenerate-message"
  | "approval-responses"
  | "tool-outputs";

/** Triggers that continue the last assistant message instead of starting one. */
const CONTINUES = new Set<string>(["submit-message", "approval-responses", "tool-outputs"]);

/** A request that the server refused (a JSON error of lib/http/errors.ts, or any non-2xx). */
export class ChatRequestError extends Error {
  override name = "ChatRequestError";
  constructor(readonly status: number, readonly code: string | null, message: string) {
    super(message);
  }
}

/** The stream carried an `error` chunk: the turn failed after it started. */
export class ChatStreamError extends Error {
  override name = "ChatStreamError";
}

/** How a turn ended, for `onFinish`. */
export interface ChatFinish<M extends UIMessage> {
  message: M;
  messages: M[];
  isAbort: boolean;
  isError: boolean;
  /** The connection failed (not the server): the answer may still be finishing there. */
  isDisconnect: boolean;
  finishReason?: FinishReason;
}

export interface ChatOptions<M extends UIMessage> {
  id: string;
  messages?: M[];
  /** POST endpoint of the turn; resumption GETs `${api}/${id}/stream`. */
  api?: string;
  /** Fields added to every POST body (e.g. the chosen model). */
  body?: () => Record<string, unknown>;
  fetch?: typeof fetch;
  /** The fetch used for browser-run agents' calls (default: global fetch). */
  agentFetch?: typeof fetch;
  onData?: (chunk: UIMessageChunk & { type: `data-${string}` }) => void;
  onError?: (error: Error) => void;
  onFinish?: (finish: ChatFinish<M>) => void;
}

/** A copy of the message the builder keeps mutating: new identities for the parts a render reads. */
function snapshot<M extends UIMessage>(message: M): M {
  return { ...message, parts: message.parts.map((p) => ({ ...p })) };
}

function newId(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 16);
}

/** Reads a refused request's JSON error (`{ error: { code, message } }`) if it is one. */
async function requestError(res: Response): Promise<ChatRequestError> {
  const text = await res.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (body.error?.code) {
      return new ChatRequestError(res.status, body.error.code, body.error.message ?? text);
    }
  } catch { /* not JSON: keep the text */ }
  return new ChatRequestError(res.status, null, text || `HTTP ${res.status}`);
}

/** What a run sends: the new message, or the visitor's approval responses or tool outputs. */
interface RunRequest<M extends UIMessage> {
  messageId?: string;
  message?: M;
  approvals?: ApprovalResponse[];
  outputs?: ToolOutput[];
}

/** What one run of a turn learns as it reads. */
interface RunState<M extends UIMessage> {
  /** The message the chunks build; null until a response is there to read. */
  builder: MessageBuilder<M> | null;
  /** Chunks applied so far (a resume asks for the ones after them). */
  applied: number;
  isAbort: boolean;
  isError: boolean;
  isDisconnect: boolean;
}

/** A conversation whose state lives in signals; components read them and re-render. */
export class Chat<M extends UIMessage> {
  readonly id: string;
  readonly signals = {
    messagesSignal: signal<M[]>([]),
    statusSignal: signal<ChatStatus>("ready"),
    errorSignal: signal<Error | undefined>(undefined),
  };
  private readonly options: ChatOptions<M>;
  private readonly api: string;
  private active: { controller: AbortController; done: Promise<void> } | null = null;
  /**
   * The answer whose stream broke (a network error, not a stop): its builder and how many
   * of its chunks were applied, so a resume asks for the rest only (`?from=`).
   */
  private broken: { builder: MessageBuilder<M>; chunks: number } | null = null;

  constructor(options: ChatOptions<M>) {
    this.options = options;
    this.id = options.id;
    this.api = options.api ?? "/api/chat";
    this.signals.messagesSignal.value = options.messages ?? [];
  }

  get messages(): M[] {
    return this.signals.messagesSignal.value;
  }
  get status(): ChatStatus {
    return this.signals.statusSignal.value;
  }
  get error(): Error | undefined {
    return this.signals.errorSignal.value;
  }

  /**
   * Sends a question. With `messageId`, the saved question of that id is replaced
   * (edit-and-resend) and everything after it dropped, as the server does.
   */
  async sendMessage({ text, messageId }: { text: string; messageId?: string }): Promise<void> {
    const list = this.messages;
    const user = { id: messageId ?? newId(), role: "user", parts: [{ type: "text", text }] } as M;
    if (messageId != null) {
      const i = list.findIndex((m) => m.id === messageId);
      if (i < 0 || list[i].role !== "user") {
        throw new Error(`No question with id "${messageId}" to replace.`);
      }
      this.signals.messagesSignal.value = [...list.slice(0, i), user];
    } else {
      this.signals.messagesSignal.value = [...list, user];
    }
    await this.run("submit-message", { messageId, message: user });
  }

  /** Asks again for the last answer (or the answer `messageId`), replacing it. */
  async regenerate({ messageId }: { messageId?: string } = {}): Promise<void> {
    const list = this.messages;
    const i = messageId == null ? list.length - 1 : list.findIndex((m) => m.id === messageId);
    if (i < 0) throw new Error(`No message with id "${messageId}".`);
    this.signals.messagesSignal.value = list.slice(0, list[i].role === "assistant" ? i : i + 1);
    await this.run("regenerate-message", { messageId });
  }

  /**
   * Follows an answer still streaming on the server (a reload, another tab, a dropped
   * connection); does nothing when none is. After a dropped connection it asks only for the
   * chunks not applied yet, so text already on screen is not repeated.
   */
  async resumeStream(): Promise<void> {
    await this.run("resume-stream", {});
  }

  /**
   * Records the visitor's decision on the approval `id` (state `approval-responded`;
   * an approved edit replaces the part's input). Once every pending approval of the
   * last assistant message has a response, sends them all in one request and
   * continues that message; approved browser-run calls are run from here first.
   */
  async addToolApprovalResponse({ id, approved, reason, input }: ApprovalDecision): Promise<void> {
    const list = this.messages;
    const i = list.findLastIndex((m) =>
      toolParts(m).some((p) => p.approval?.id === id && p.state === "approval-requested")
    );
    if (i < 0) throw new Error(`No tool call awaits the approval "${id}": reload the chat.`);
    const message = snapshot(list[i]);
    for (const part of toolParts(message)) {
      if (part.approval?.id !== id) continue;
      part.state = "approval-responded";
      part.approval = {
        ...part.approval,
        approved,
        ...(reason && !approved ? { reason } : {}),
        ...(input && approved ? { edited: true } : {}),
      };
      if (input && approved) part.input = input;
    }
    const next = list.slice();
    next[i] = message;
    this.signals.messagesSignal.value = next;
    if (i === list.length - 1) await this.continueAfterApprovals();
  }

  /**
   * Sends the responded approvals of the last assistant message when none is pending
   * any more (also a retry after a failed send). Returns whether a request was made.
   */
  async continueAfterApprovals(): Promise<boolean> {
    const parts = toolParts(this.messages.at(-1));
    if (parts.some((p) => p.state === "approval-requested")) return false;
    const approvals = parts.filter((p) => p.state === "approval-responded").map(responseOf);
    if (!approvals.length) return false;
    const outputs = await this.runBrowserCalls();
    if (outputs.length) await this.run("tool-outputs", { outputs, approvals });
    else await this.run("approval-responses", { approvals });
    return true;
  }

  /** Runs the browser-run calls the last assistant message waits for. */
  private async runBrowserCalls(): Promise<ToolOutput[]> {
    const calls = browserCalls(toolParts(this.messages.at(-1)));
    if (!calls.length) return [];
    this.setStatus("submitted");
    const { runBrowserCall } = await import("./browser_run.ts");
    const fetchAgent = this.options.agentFetch ?? fetch;
    const outputs = await Promise.all(calls.map(async (p) => ({
      toolCallId: p.toolCallId,
      output: await runBrowserCall(descriptorOf(p)!, (p.input ?? {}) as Record<string, unknown>, {
        fetch: fetchAgent,
      }),
    })));
    this.recordOutputs(outputs);
    return outputs;
  }

  /**
   * Shows the browser's results on the last message at once, as the SDK's `addToolOutput`
   * does: the server applies them too, but streams no chunk for results it did not produce.
   */
  private recordOutputs(outputs: ToolOutput[]): void {
    const list = this.messages;
    const message = snapshot(list[list.length - 1]);
    for (const part of toolParts(message)) {
      const result = outputs.find((o) => o.toolCallId === part.toolCallId);
      if (!result) continue;
      part.state = "output-available";
      part.output = result.output;
    }
    this.signals.messagesSignal.value = [...list.slice(0, -1), message];
  }

  /**
   * Stops the answer in flight: asks the server to stop the model (a dropped connection alone
   * does not), then closes the stream; resolves once it is closed.
   */
  async stop(): Promise<void> {
    const active = this.active;
    if (!active) return;
    const doFetch = this.options.fetch ?? fetch;
    await doFetch(`${this.api}/${encodeURIComponent(this.id)}/stop`, { method: "POST" })
      .then((res) => res.text()) // read, not cancelled: a cancelled body is a failed request
      .catch(() => {/* offline: the server aborts the turn once nobody reads it */});
    active.controller.abort();
    await active.done;
  }

  private setStatus(status: ChatStatus, error?: Error): void {
    batch(() => {
      this.signals.statusSignal.value = status;
      this.signals.errorSignal.value = error;
    });
  }

  /** Puts the builder's message into the list: replaces the message of its id, or appends it. */
  private publish(message: M): void {
    const list = this.messages;
    const i = list.findLastIndex((m) => m.id === message.id);
    const next = list.slice();
    if (i >= 0) next[i] = snapshot(message);
    else next.push(snapshot(message));
    this.signals.messagesSignal.value = next;
  }

  private async run(
    trigger: ChatTrigger | "resume-stream",
    request: RunRequest<M>,
  ): Promise<void> {
    if (this.active) await this.stop();
    const controller = new AbortController();
    let settle!: () => void;
    const done = new Promise<void>((r) => (settle = r));
    this.active = { controller, done };
    // A broken answer still last on screen goes on from its last applied chunk.
    const broken = this.broken?.builder.message.id === this.messages.at(-1)?.id
      ? this.broken
      : null;
    this.broken = null;
    const run: RunState<M> = {
      builder: null,
      applied: broken?.chunks ?? 0,
      isAbort: false,
      isError: false,
      isDisconnect: false,
    };
    let resumeAfter = false;
    try {
      const res = await this.openStream(trigger, request, controller.signal, broken, run);
      if (!res) return; // nothing streaming for this chat
      await this.readStream(res.body!, controller.signal, run);
      if (controller.signal.aborted) run.isAbort = true;
      this.setStatus("ready");
    } catch (error) {
      resumeAfter = this.runFailed(error, controller.signal, broken, run);
    } finally {
      if (this.active?.controller === controller) this.active = null;
      settle();
    }
    if (resumeAfter) return await this.run("resume-stream", {});
    if (run.builder) await this.runFinished(run.builder, run);
  }

  /**
   * The response to read: a POST of the turn, or the GET of the chat's running stream
   * (null when nothing streams). Sets `run.builder` to the message the chunks build.
   */
  private async openStream(
    trigger: ChatTrigger | "resume-stream",
    { messageId, message, approvals, outputs }: RunRequest<M>,
    signal: AbortSignal,
    broken: Chat<M>["broken"],
    run: RunState<M>,
  ): Promise<Response | null> {
    const doFetch = this.options.fetch ?? fetch;
    let res: Response;
    if (trigger === "resume-stream") {
      const from = run.applied ? `?from=${run.applied}` : "";
      res = await doFetch(`${this.api}/${encodeURIComponent(this.id)}/stream${from}`, { signal });
      // Nothing streaming for this chat (404: not a chat of this visitor, or not saved yet).
      if (res.status === 204 || res.status === 404) {
        await res.body?.cancel();
        return null;
      }
    } else {
      this.setStatus("submitted");
      // Approval responses and tool outputs continue the last assistant message (the
      // server's `start` names it again); on regenerate or resume a new message starts.
      const last = this.messages.at(-1);
      run.builder = new MessageBuilder<M>(
        CONTINUES.has(trigger) && last?.role === "assistant" ? snapshot(last) : undefined,
        newId(),
      );
      res = await doFetch(this.api, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          ...this.options.body?.(),
          id: this.id,
          trigger,
          messageId,
          message: trigger === "submit-message" ? message : undefined,
          approvals,
          outputs,
        }),
        signal,
      });
    }
    if (!res.ok) throw await requestError(res);
    if (!res.body) throw new ChatRequestError(res.status, null, "The response has no body.");
    if (trigger === "resume-stream") {
      this.setStatus("submitted");
      run.builder = broken
        ? new MessageBuilder<M>(snapshot(broken.builder.message), broken.builder.message.id)
        : new MessageBuilder<M>(undefined, newId());
    }
    return res;
  }

  /** Applies the stream's chunks to `run.builder`, publishing the message as it grows. */
  private async readStream(
    body: NonNullable<Response["body"]>,
    signal: AbortSignal,
    run: RunState<M>,
  ): Promise<void> {
    const current = run.builder!;
    for await (const chunk of readChunks(body)) {
      if (signal.aborted) break;
      run.applied++;
      if (chunk.type === "error") throw new ChatStreamError(chunk.errorText);
      if (chunk.type.startsWith("data-")) {
        this.options.onData?.(chunk as UIMessageChunk & { type: `data-${string}` });
      }
      if (current.apply(chunk)) {
        batch(() => {
          // A `start` names the message without making the turn "streaming" yet.
          if (chunk.type !== "start") this.signals.statusSignal.value = "streaming";
          this.publish(current.message);
        });
      }
    }
  }

  /** A run that threw: a stop, an error, or a dropped connection; true: resume it once. */
  private runFailed(
    error: unknown,
    signal: AbortSignal,
    broken: Chat<M>["broken"],
    run: RunState<M>,
  ): boolean {
    const err = error instanceof Error ? error : new Error(String(error));
    if (signal.aborted || err.name === "AbortError") {
      run.isAbort = true;
      this.setStatus("ready");
      return false;
    }
    run.isError = true;
    // fetch() itself failed: the network, not the server.
    run.isDisconnect = err instanceof TypeError;
    // Mid-answer, the answer goes on on the server: resume it once, from where it broke.
    const resume = run.isDisconnect && run.applied > 0 && !broken && run.builder !== null;
    if (resume) this.broken = { builder: run.builder!, chunks: run.applied };
    else {
      this.options.onError?.(err);
      this.setStatus("error", err);
    }
    return resume;
  }

  /** The end of a run that built a message: `onFinish`, then any browser-run calls. */
  private async runFinished(builder: MessageBuilder<M>, run: RunState<M>): Promise<void> {
    const { isAbort, isError, isDisconnect } = run;
    this.options.onFinish?.({
      message: builder.message,
      messages: this.messages,
      isAbort,
      isError,
      isDisconnect,
      finishReason: builder.finishReason,
    });
    // A browser-run call that needed no approval waits for this browser to run it.
    const waiting = !isAbort && !isError &&
      browserCalls(toolParts(this.messages.at(-1))).some((p) => p.state === "input-available");
    if (waiting) await this.sendBrowserOutputs();
  }

  private async sendBrowserOutputs(): Promise<void> {
    const outputs = await this.runBrowserCalls();
    if (outputs.length) await this.run("tool-outputs", { outputs });
  }
}
