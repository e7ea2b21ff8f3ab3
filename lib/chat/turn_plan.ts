/**
 * The first phase of a chat turn: from the request to a plan. Everything a
 * visitor can get wrong is found here, before any stream starts, and becomes a
 * JSON error; what comes out is all the later phases need: who asks, in which
 * chat, with which model, history and tools, and what the turn will write.
 */
import { convertToModelMessages, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import type { Ctx } from "@/lib/http/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { readJsonBody } from "@/lib/http/body.ts";
import { resolveVisitor } from "@/lib/http/visitor.ts";
import { clientIp } from "@/lib/http/client_ip.ts";
import { ModelUnavailableError } from "@/lib/models/registry.ts";
import { type ChatRequest, newUserMessage, parseChatRequest } from "./request.ts";
import { createSearchTool, SEARCH_TOOL } from "@/lib/tools/search_site.ts";
import { systemPrompt } from "./system_prompt.ts";
import type { ChatMessage } from "./types.ts";

/** A source the search tool numbered, to stream as a `source-url` part. */
export interface NumberedSource {
  n: number;
  url: string;
  title: string;
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
  /** The visitor's new question; null when an answer is regenerated. */
  question: ChatMessage | null;
  /** Edit or regenerate: the id of the first saved message this turn replaces. */
  replaceFrom: string | null;
  /** Whether the chat had no saved record when the turn was planned. */
  newChat: boolean;
  /** Passage numbers of this turn, filled by the search tool, read by the citation filter. */
  citable: Set<string>;
  /** Where the search tool announces a numbered passage; the stream phase sets it. */
  sources: { onSource: (source: NumberedSource) => void };
  startedAt: number;
}

/** Validates the request and loads what the turn needs; throws `HttpError`s. */
export async function planTurn(ctx: Ctx): Promise<TurnPlan> {
  const { req, url, app } = ctx;
  const startedAt = app.clock();
  const request = parseChatRequest(await readJsonBody(req, app.config.maxBodyBytes));
  const visitor = await resolveVisitor(req, app.signer);
  const ip = clientIp(ctx);
  // The shared limit check and the history load are independent KV round trips: overlap
  // them, and do the work that needs neither while they are in flight. Their failures are
  // thrown below, in the order a visitor would meet them without the overlap.
  const pending = Promise.all([
    app.limits.check(visitor.id, ip).catch((error) => {
      // The in-isolate counter already answered; a KV hiccup on the shared counter must not fail the chat.
      console.error("Rate-limit check failed; letting the request through:", error);
      return null;
    }),
    loadOwnHistory(app, request.id, visitor.id).then(
      (loaded) => ({ loaded, error: null }),
      (error: unknown) => ({ loaded: null, error }),
    ),
  ]);
  const modelId = request.model ?? app.models.defaultModelId();
  const picked = pickModel(app, modelId);
  const newMessage = request.trigger === "regenerate-message"
    ? null
    : await newUserMessage(request.message as unknown as ChatMessage);
  const citable = new Set<string>();
  const sources = { onSource: (_: NumberedSource) => {} };
  const tools: ToolSet = {
    [SEARCH_TOOL]: createSearchTool(app.search, {
      origin: app.config.site.url ?? url.origin,
      onSource: (s) => {
        citable.add(String(s.n));
        sources.onSource(s);
      },
    }),
  };

  const [limited, history] = await pending;
  if (limited) {
    throw new HttpError("rate_limited", "Too many requests. Please wait a moment.", {
      "Retry-After": String(limited.retryAfterSeconds),
    });
  }
  if ("error" in picked) throw picked.error;
  if (history.error) throw history.error;
  const { messages: saved, exists } = history.loaded!;
  const next = request.trigger === "regenerate-message"
    ? regeneratePlan(saved, request)
    : questionPlan(saved, newMessage!);
  return {
    chatId: request.id,
    visitor,
    ip,
    modelId,
    model: picked.model,
    instructions: systemPrompt(app.config, new Date(startedAt)),
    tools,
    modelMessages: await convertToModelMessages(forModel(next.messages), { tools }),
    question: next.question,
    replaceFrom: next.replaceFrom,
    newChat: !exists,
    citable,
    sources,
    startedAt,
  };
}

/** What the model reads and what the turn replaces. */
interface NextMessages {
  messages: ChatMessage[];
  question: ChatMessage | null;
  replaceFrom: string | null;
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
  return { messages, question: null, replaceFrom: history[idx].id };
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
  };
}

/**
 * The history as the model should read it: answers that produced nothing (stopped before
 * their first token, failed, or cut off by a crash) are left out, since an empty assistant
 * turn is refused by some providers and tells the model nothing.
 */
function forModel(messages: ChatMessage[]): ChatMessage[] {
  return messages.filter((m) => m.role !== "assistant" || m.parts.length > 0);
}

function pickModel(
  app: Ctx["app"],
  modelId: string,
): { model: LanguageModel } | { error: unknown } {
  try {
    return { model: app.models.get(modelId) };
  } catch (error) {
    if (error instanceof ModelUnavailableError) {
      return { error: new HttpError("invalid_request", error.message) };
    }
    return { error };
  }
}

/** The chat's saved messages for its owner; another visitor's chat answers exactly like a missing one. */
async function loadOwnHistory(
  app: Ctx["app"],
  chatId: string,
  visitorId: string,
): Promise<{ messages: ChatMessage[]; exists: boolean }> {
  const chat = await app.store.getChat(chatId);
  if (chat && chat.visitorId !== visitorId) {
    throw new HttpError("not_found", `Chat "${chatId}" not found.`);
  }
  if (!chat) return { messages: [], exists: false };
  return { messages: await app.store.loadMessages(chatId) as ChatMessage[], exists: true };
}
