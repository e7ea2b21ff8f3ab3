/**
 * The first phase of a chat turn: from the visitor's request to a plan. Everything a
 * visitor can get wrong is found here, before any stream starts, and becomes a typed
 * refusal (an `HttpError` with its code, which the HTTP adapter turns into JSON); what
 * comes out is all the later phases need: who asks, in which chat, with which model,
 * history and tools, and what the turn will write.
 */
import { convertToModelMessages, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import { HttpError } from "@/lib/http/errors.ts";
import { ModelUnavailableError } from "@/lib/models/registry.ts";
import type { ChatRequest } from "@/lib/protocol/chat_request.ts";
import { newUserMessage } from "../request.ts";
import { type AgentToolContext, hashVisitorId, type ReadyAgent } from "@/lib/tools/agent_tools.ts";
import { type TurnTools, turnTools, withRemoteTools } from "@/lib/tools/mod.ts";
import { APPROVAL_TTL_MS, claimApproval } from "../approvals.ts";
import { continuationPlan } from "./continue.ts";
import { systemPrompt } from "../system_prompt.ts";
import type { ChatMessage, EarlierAnswer } from "@/lib/protocol/ui_message.ts";
import { earlierAnswers } from "../earlier_answers.ts";
import { scrubInternal } from "../scrub_internal.ts";
import { inSpan, TURN_SPANS } from "@/lib/telemetry/spans.ts";
import { prefetchCall } from "../prefetch.ts";
import type { PrefetchCall } from "../engine/prefetch_step.ts";
import type { TurnDeps } from "./deps.ts";
import { followsRelated } from "@/lib/text/related_questions.ts";
import { textOf } from "@/lib/gaps/turn_gap.ts";

/** One turn as the visitor asked for it: plain values, read from HTTP by the caller. */
export interface ChatTurnInput {
  /** The parsed body of the request (lib/chat/request.ts `parseChatRequest`). */
  request: ChatRequest;
  /** Who asks; `setCookie` carries a new visitor's cookie to the first answer. */
  visitor: { id: string; setCookie: string | null };
  /** The peer address, for the per-IP limits. */
  ip: string;
  locale: AgentToolContext["locale"];
  /** The origin the request came in on: passage URLs and "self" agents use it without `site.url`. */
  origin: string;
  /** Fires when the visitor's connection goes away (e.g. `request.signal`). */
  signal?: AbortSignal;
  /** When the turn started (`deps.clock()` when the request came in). */
  startedAt: number;
}

/** Everything the stream and save phases need, decided before the stream starts. */
export interface TurnPlan {
  chatId: string;
  visitor: { id: string; setCookie: string | null };
  /** The peer address, for the per-IP limits. */
  ip: string;
  modelId: string;
  model: LanguageModel;
  instructions: string;
  tools: ToolSet;
  /** The conversation as the model reads it. */
  modelMessages: ModelMessage[];
  /** The site search the turn runs before the first model call (lib/chat/prefetch.ts), or null. */
  prefetch: PrefetchCall | null;
  /** The visitor's new question; null when an answer is regenerated. */
  question: ChatMessage | null;
  /** Edit or regenerate: the id of the first saved message this turn replaces. */
  replaceFrom: string | null;
  /** The answer this turn continues (approvals, browser results), with the responses applied. */
  continued: ChatMessage | null;
  /** Regenerate: the answers to the same question so far, kept on the new one. */
  earlier: EarlierAnswer[];
  /** Regenerate: the question asked again (the visitor was not content with its answer). */
  retried: ChatMessage | null;
  /**
   * The previous question, when the new one is a related question offered under its answer
   * (the visitor went on from that answer: a content gap).
   */
  followedFrom: ChatMessage | null;
  /** The tools of the turn with their approval rule. */
  turnTools: TurnTools;
  /** What agent calls of this turn carry. */
  context: AgentToolContext;
  /** Who answers: the picked agent, else the model. */
  agentId: string;
  /** Whether the chat had no saved record when the turn was planned. */
  newChat: boolean;
  startedAt: number;
}

/** Checks the request against limits and history and loads what the turn needs; throws `HttpError`s. */
export async function planTurn(input: ChatTurnInput, deps: TurnDeps): Promise<TurnPlan> {
  const { request, visitor, ip } = input;
  // The shared limit check and the history load are independent KV round trips: overlap
  // them, and do the work that needs neither while they are in flight. Their failures are
  // thrown below, in the order a visitor would meet them without the overlap.
  const pending = Promise.all([
    inSpan(TURN_SPANS.limits, () => deps.limits.check(visitor.id, ip)).catch((error) => {
      // The in-isolate counter already answered; a KV hiccup on the shared counter must not fail the chat.
      console.error("Rate-limit check failed; letting the request through:", error);
      return null;
    }),
    inSpan(TURN_SPANS.history, () => loadOwnHistory(deps, request.id, visitor.id)).then(
      (loaded) => ({ loaded, error: null }),
      (error: unknown) => ({ loaded: null, error }),
    ),
  ]);
  const modelId = request.model ?? deps.models.defaultModelId();
  const picked = pickModel(deps, modelId);
  const newMessage = request.trigger === "submit-message"
    ? await newUserMessage(request.message as unknown as ChatMessage)
    : null;
  const { context, turn, notes } = await toolsOfTurn(input, deps);

  const [limited, history] = await pending;
  if (limited) {
    throw new HttpError("rate_limited", "Too many requests. Please wait a moment.", {
      "Retry-After": String(limited.retryAfterSeconds),
    });
  }
  if ("error" in picked) throw picked.error;
  if (history.error) throw history.error;
  const { messages: saved, exists } = history.loaded!;
  const next = await nextMessages(deps, saved, request, newMessage, turn);
  const tools = turn.tools;
  const modelMessages = await convertToModelMessages(forModel(next.messages), { tools });
  const continued = next.continued !== null;
  return {
    chatId: request.id,
    visitor,
    ip,
    modelId,
    model: picked.model,
    instructions: [
      systemPrompt(deps.config, new Date(input.startedAt), input.locale === "en" ? "en" : "pt-BR"),
      ...notes,
    ].join("\n\n"),
    tools,
    modelMessages,
    prefetch: prefetchCall({
      retrieval: deps.config.retrieval,
      messages: modelMessages,
      continued,
      tools,
    }),
    question: next.question,
    replaceFrom: next.replaceFrom,
    continued: next.continued,
    earlier: next.earlier ?? [],
    retried: next.retried ?? null,
    followedFrom: next.followedFrom ?? null,
    turnTools: turn,
    context,
    agentId: request.agent ?? modelId,
    newChat: !exists,
    startedAt: input.startedAt,
  };
}

/** The tools of the turn, what its agent calls carry, and notes on remote tools for the prompt. */
async function toolsOfTurn(
  input: ChatTurnInput,
  deps: TurnDeps,
): Promise<{ context: AgentToolContext; turn: TurnTools; notes: string[] }> {
  const { request, ip } = input;
  const origin = deps.config.site.url ?? input.origin;
  const context: AgentToolContext = {
    chatId: request.id,
    locale: input.locale,
    visitor: await hashVisitorId(input.visitor.id),
    origin,
    selfApp: deps.selfApp,
    ip,
    sealContext: (header) => deps.contextSeal.seal(header, deps.clock()),
  };
  // MCP agents' tools come from their servers (cached, with a deadline).
  const remote = await withRemoteTools(pickAgents(deps.agents, request.agent));
  const turn = turnTools({
    search: deps.search,
    agents: remote.agents,
    origin,
    siteOrigins: deps.config.allowedOrigins,
    context,
  });
  return { context, turn, notes: remote.notes };
}

/** What the model reads and what the turn replaces. */
interface NextMessages {
  messages: ChatMessage[];
  question: ChatMessage | null;
  replaceFrom: string | null;
  /** The answer this turn continues (after approvals or browser results), or null for a new one. */
  continued: ChatMessage | null;
  /** Regenerate: the replaced answer and those before it. */
  earlier?: EarlierAnswer[];
  /** Regenerate: the question answered again. */
  retried?: ChatMessage | null;
  /** A new question that is a related question of the last answer: that answer's question. */
  followedFrom?: ChatMessage | null;
}

/** The messages of the turn, for each kind of request. */
async function nextMessages(
  deps: TurnDeps,
  history: ChatMessage[],
  request: ChatRequest,
  newMessage: Awaited<ReturnType<typeof newUserMessage>> | null,
  turn: TurnTools,
): Promise<NextMessages> {
  if (request.trigger === "regenerate-message") return regeneratePlan(history, request);
  if (request.trigger === "submit-message") return questionPlan(history, newMessage!);
  const plan = await continuationPlan(history, request, {
    chatId: request.id,
    now: deps.clock(),
    verify: (call, signature) => deps.approvals.verify(call, signature),
    runsInBrowser: (name) => turn.agentFor(name)?.agent.agent.runIn === "browser",
  });
  // Single use, claimed only once every check passed: a replay finds its claim taken.
  for (const id of plan.claims) {
    if (!await claimApproval(deps.kv, id, 2 * APPROVAL_TTL_MS)) {
      throw new HttpError("invalid_request", `Approval "${id}" was already used.`);
    }
  }
  return { messages: plan.messages, question: null, replaceFrom: null, continued: plan.continued };
}

/** The agents of the turn: the one the visitor picked, or all of them. */
function pickAgents(agents: readonly ReadyAgent[], picked: string | undefined): ReadyAgent[] {
  if (picked === undefined) return [...agents];
  const agent = agents.find((a) => a.agent.id === picked);
  if (!agent) {
    throw new HttpError(
      "invalid_request",
      `Unknown agent "${picked}". Use one of: ${agents.map((a) => `"${a.agent.id}"`).join(", ")}.`,
    );
  }
  return [agent];
}

/** Regenerating an answer: it and everything after it are replaced. */
function regeneratePlan(history: ChatMessage[], request: ChatRequest): NextMessages {
  const idx = request.messageId
    ? history.findIndex((m) => m.id === request.messageId)
    : history.findLastIndex((m) => m.role === "assistant");
  if (idx < 0 || history[idx].role !== "assistant") {
    throw new HttpError("invalid_request", "There is no assistant answer to regenerate.");
  }
  const messages = history.slice(0, idx);
  if (messages.length === 0) throw new HttpError("invalid_request", "There is nothing to answer.");
  return {
    messages,
    question: null,
    replaceFrom: history[idx].id,
    continued: null,
    earlier: earlierAnswers(history[idx]),
    retried: messages.findLast((m) => m.role === "user") ?? null,
  };
}

/** A new question, or an edited one (a saved question's id): the edit replaces it and what follows. */
function questionPlan(
  history: ChatMessage[],
  candidate: Awaited<ReturnType<typeof newUserMessage>>,
): NextMessages {
  if (candidate.error) throw candidate.error;
  const user = candidate.message;
  const edited = history.findIndex((m) => m.id === user.id);
  if (edited >= 0 && history[edited].role !== "user") {
    throw new HttpError(
      "invalid_request",
      `Message "${user.id}" is not a question that can be edited.`,
    );
  }
  if (candidate.invalid) throw candidate.invalid;
  const keep = edited >= 0 ? edited : history.length;
  return {
    messages: [...history.slice(0, keep), user],
    question: user,
    replaceFrom: edited >= 0 ? user.id : null,
    continued: null,
    followedFrom: edited >= 0 ? null : followedFrom(history, user),
  };
}

/**
 * The question of the last answer when `user` asks one of the related questions offered under
 * that answer (lib/text/related_questions.ts), else null.
 */
function followedFrom(history: readonly ChatMessage[], user: ChatMessage): ChatMessage | null {
  const answer = history.at(-1);
  const asked = history.at(-2);
  if (answer?.role !== "assistant" || asked?.role !== "user") return null;
  return followsRelated(answer, textOf(user)) ? asked : null;
}

/**
 * The history as the model should read it: answers that produced nothing (stopped before
 * their first token, failed, or cut off by a crash) are left out, since an empty assistant
 * turn is refused by some providers and tells the model nothing. A tool call of an earlier
 * answer that never got a result (the turn failed or was cut off mid-call) is left out too:
 * a call without its result makes every later prompt invalid, which would end every later
 * turn of the chat in an error. The last message keeps its calls: a continued answer's
 * are answered by this turn.
 */
function forModel(messages: ChatMessage[]): ChatMessage[] {
  return messages.flatMap((m, i) => {
    if (m.role !== "assistant") return [m];
    const parts = i === messages.length - 1 ? m.parts : m.parts.filter((p) => !unanswered(p));
    if (parts.length === 0) return [];
    return [parts.length === m.parts.length ? m : { ...m, parts }];
  });
}

/** A tool call the saved answer holds without a result or a pending approval. */
function unanswered(part: ChatMessage["parts"][number]): boolean {
  const state = (part as { state?: unknown }).state;
  return (part.type === "dynamic-tool" || part.type.startsWith("tool-")) &&
    (state === "input-streaming" || state === "input-available");
}

function pickModel(
  deps: TurnDeps,
  modelId: string,
): { model: LanguageModel } | { error: unknown } {
  try {
    return { model: deps.models.get(modelId) };
  } catch (error) {
    if (error instanceof ModelUnavailableError) {
      return { error: new HttpError("invalid_request", error.message) };
    }
    return { error };
  }
}

/** The chat's saved messages for its owner; another visitor's chat answers exactly like a missing one. */
async function loadOwnHistory(
  deps: TurnDeps,
  chatId: string,
  visitorId: string,
): Promise<{ messages: ChatMessage[]; exists: boolean }> {
  const { chat, messages } = await deps.store.loadChat(chatId, { visitorId });
  if (chat && chat.visitorId !== visitorId) {
    throw new HttpError("not_found", `Chat "${chatId}" not found.`);
  }
  if (!chat) return { messages: [], exists: false };
  return { messages: scrubInternal(messages as ChatMessage[]), exists: true };
}
