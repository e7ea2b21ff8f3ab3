/**
 * One chat turn: POST /api/chat. Validates everything before the stream
 * starts (each failure a JSON error), runs the chat engine (lib/chat/engine/)
 * with the site search, streams the UI message protocol with citations
 * checked, and saves the finished (or stopped) turn in one atomic write after
 * the stream, without delaying it.
 */
import { convertToModelMessages, type UIMessageChunk } from "ai";
import { MessageBuilder } from "@/lib/client/message_builder.ts";
import type { Ctx } from "@/lib/http/define.ts";
import { errorResponse, HttpError } from "@/lib/http/errors.ts";
import { readJsonBody } from "@/lib/http/body.ts";
import { corsHeaders, originAllowed } from "@/lib/http/origin.ts";
import { resolveVisitor } from "@/lib/http/visitor.ts";
import { ModelUnavailableError } from "@/lib/models/registry.ts";
import { findModel } from "@/lib/models/catalog.ts";
import { collectRoutes } from "@/lib/models/call_routes.ts";
import type { UpstreamRoute } from "@/lib/models/types.ts";
import { StoreUnavailableError } from "@/lib/store/chats.ts";
import { type CitationCounts, citationFilter } from "./citations.ts";
import { runTurn } from "./engine/run_turn.ts";
import { newUserMessage, parseChatRequest } from "./request.ts";
import { createSearchTool, SEARCH_TOOL } from "./search_tool.ts";
import { SSE_HEADERS, sseWriter } from "./sse.ts";
import { systemPrompt } from "./system_prompt.ts";
import { fallbackTitle } from "./title.ts";
import type { ChatMessage, ChatMessageMetadata } from "./types.ts";

/** What the visitor sees when something fails inside the stream; details go to the log. */
const GENERIC_STREAM_ERROR = "The answer could not be completed. Please try again.";

/** Chunk types that carry no content: the first token is the first chunk after them. */
const PREAMBLE = new Set(["start", "start-step", "message-metadata"]);

/** Handles POST /api/chat. */
export async function chatTurn(ctx: Ctx): Promise<Response> {
  const { req, url, app } = ctx;
  const startedAt = app.clock();
  const cors = corsHeaders(req, url, app.config.allowedOrigins);
  const fail = (e: HttpError) => {
    const res = errorResponse(e.code, e.message, e.headers);
    for (const [k, v] of Object.entries(cors)) res.headers.set(k, v);
    return res;
  };
  try {
    if (!originAllowed(req, url, app.config.allowedOrigins)) {
      throw new HttpError(
        "origin_not_allowed",
        `Origin "${req.headers.get("origin")}" may not call this API.`,
      );
    }
    const request = parseChatRequest(await readJsonBody(req, app.config.maxBodyBytes));
    const visitor = await resolveVisitor(req, app.signer);
    // The shared limit check and the history load are independent KV round trips: overlap
    // them, and do the work that needs neither while they are in flight. Its failures are
    // thrown below, in the order a visitor would meet them without the overlap.
    const pending = Promise.all([
      app.limits.check(visitor.id, clientIp(ctx)).catch((error) => {
        // The in-isolate counter already answered; a KV hiccup on the shared counter must not fail the chat.
        console.error("Rate-limit check failed; letting the request through:", error);
        return null;
      }),
      loadOwnHistory(app, request.id, visitor.id).then(
        (history) => ({ history, error: null }),
        (error: unknown) => ({ history: null, error }),
      ),
    ]);

    const modelId = request.model ?? app.models.defaultModelId();
    let picked: { model: ReturnType<typeof app.models.get> } | { error: unknown };
    try {
      picked = { model: app.models.get(modelId) };
    } catch (error) {
      picked = { error };
    }
    const newMessage = request.trigger === "regenerate-message"
      ? null
      : await newUserMessage(request.message as unknown as ChatMessage);
    const instructions = systemPrompt(app.config, new Date(startedAt));
    // Passage numbers of this turn, filled by the search tool, read by the citation filter.
    const citable = new Set<string>();
    let writeSource: (s: { n: number; url: string; title: string }) => void = () => {};
    const tools = {
      [SEARCH_TOOL]: createSearchTool(app.search, {
        origin: app.config.site.url ?? url.origin,
        onSource: (s) => {
          citable.add(String(s.n));
          writeSource(s);
        },
      }),
    };

    const [limited, loaded] = await pending;
    if (limited) {
      throw new HttpError("rate_limited", "Too many requests. Please wait a moment.", {
        "Retry-After": String(limited.retryAfterSeconds),
      });
    }
    if ("error" in picked) {
      if (picked.error instanceof ModelUnavailableError) {
        throw new HttpError("invalid_request", picked.error.message);
      }
      throw picked.error;
    }
    const model = picked.model;

    if (loaded.error) throw loaded.error;
    const history = loaded.history!;

    let messages: ChatMessage[];
    let truncateTo: number;
    let newUser: ChatMessage | null = null;
    if (request.trigger === "regenerate-message") {
      const idx = request.messageId
        ? history.findIndex((m) => m.id === request.messageId)
        : history.findLastIndex((m) => m.role === "assistant");
      if (idx < 0 || history[idx].role !== "assistant") {
        throw new HttpError("invalid_request", "There is no assistant answer to regenerate.");
      }
      messages = history.slice(0, idx);
      truncateTo = idx;
    } else {
      if (newMessage!.error) throw newMessage!.error;
      const user = newMessage!.message;
      // The id of a saved question: the visitor edited it; it and everything after it are replaced.
      const edited = history.findIndex((m) => m.id === user.id);
      if (edited >= 0 && history[edited].role !== "user") {
        throw new HttpError(
          "invalid_request",
          `Message "${user.id}" is not a question that can be edited.`,
        );
      }
      if (newMessage!.invalid) throw newMessage!.invalid;
      const keep = edited >= 0 ? edited : history.length;
      messages = [...history.slice(0, keep), user];
      truncateTo = keep;
      newUser = user;
    }
    if (messages.length === 0) {
      throw new HttpError("invalid_request", "There is nothing to answer.");
    }

    const modelMessages = await convertToModelMessages(messages, { tools });

    // Deno 2.9 also fires request.signal after a response was fully sent: only an abort
    // before our stream finished is a real client disconnect.
    const abort = new AbortController();
    let delivered = false;
    req.signal.addEventListener("abort", () => {
      if (!delivered) {
        abort.abort(new DOMException("The visitor stopped the answer.", "AbortError"));
      }
    }, { once: true });

    const counts: CitationCounts = { valid: 0, invalid: 0 };
    // Routes of this turn's upstream calls (none for the offline model), for the receipt.
    const routes: UpstreamRoute[] = [];
    let ttftMs: number | undefined;
    // The answer as the client builds it, kept for the save: the same chunks, the same builder.
    const answer = new MessageBuilder<ChatMessage>(undefined, newMessageId());
    const filter = citationFilter(
      counts,
      citable,
      (kind) =>
        kind === "abort" ? { finishReason: "aborted", latencyMs: app.clock() - startedAt } : {},
    );

    // Chunks are held until the first content chunk: an upstream failure before the first
    // token is a plain JSON 502, not a stream. After that they go straight to the body.
    const head: UIMessageChunk[] = [];
    // Set once the stream is open: copies a chunk for resumption and sends it.
    let forward: ((chunk: UIMessageChunk) => void) | null = null;
    let opened!: (first: "content" | "error") => void;
    const gate = new Promise<"content" | "error">((resolve) => (opened = resolve));
    const deliver = (chunk: UIMessageChunk) => {
      if (
        ttftMs === undefined && (chunk.type === "text-delta" || chunk.type === "reasoning-delta")
      ) {
        ttftMs = app.clock() - startedAt;
      }
      if (chunk.type !== "error") answer.apply(chunk);
      if (forward) return forward(chunk);
      head.push(chunk);
      if (!PREAMBLE.has(chunk.type)) opened(chunk.type === "error" ? "error" : "content");
    };
    const emit = (chunk: UIMessageChunk) => filter(chunk, deliver);
    writeSource = (s) =>
      emit({ type: "source-url", sourceId: String(s.n), url: s.url, title: s.title });

    const ended = collectRoutes(routes, () =>
      runTurn({
        model,
        instructions,
        messages: modelMessages,
        tools,
        maxSteps: app.config.maxSteps,
        abortSignal: abort.signal,
        messageId: answer.message.id,
        startMetadata: { agentId: modelId, model: modelId, createdAt: startedAt },
        finishMetadata: ({ usage, finishReason }): ChatMessageMetadata => {
          const info = findModel(modelId);
          const cost = info && usage.inputTokens !== undefined && usage.outputTokens !== undefined
            ? (usage.inputTokens * info.pricing.inputPerMTok +
              usage.outputTokens * info.pricing.outputPerMTok) / 1e6
            : null;
          return {
            usage: {
              inputTokens: usage.inputTokens,
              outputTokens: usage.outputTokens,
              totalTokens: usage.totalTokens,
            },
            costUsd: cost,
            finishReason,
            latencyMs: app.clock() - startedAt,
            ttftMs,
            routes: [...routes],
          };
        },
        errorText: (error, where) => {
          console.error(`Chat ${request.id}: ${where} error:`, error);
          return GENERIC_STREAM_ERROR;
        },
      }, emit));

    const first = await Promise.race([gate, ended.then(() => "end" as const)]);
    if (first === "error") {
      abort.abort();
      throw new HttpError(
        "upstream_error",
        "The model provider failed before answering. Please try again.",
      );
    }
    const live = app.streams.track(request.id, visitor.id);
    const body = sseWriter({
      heartbeatMs: app.heartbeatMs,
      onCancel: () => {
        if (!delivered) {
          abort.abort(new DOMException("The visitor stopped the answer.", "AbortError"));
        }
      },
    });
    forward = (chunk) => {
      live.push(chunk);
      body.send(chunk);
    };
    head.forEach(forward);
    ended.then(async (end) => {
      live.end();
      const stopped = end.kind === "abort" || abort.signal.aborted;
      const message = answer.message;
      const saved = saveTurn(ctx, {
        chatId: request.id,
        visitorId: visitor.id,
        truncateTo,
        newUser,
        answer: stopped
          ? { ...message, metadata: { ...message.metadata, finishReason: "aborted" } }
          : message,
      });
      // Deno also fires request.signal once a response was fully sent: from here on an abort
      // is not the visitor stopping the answer.
      delivered = true;
      if (!body.open) return;
      // The timeout only guards a hang of the store.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const ok = await Promise.race([
        saved,
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 30_000))),
      ]);
      clearTimeout(timer);
      if (!ok) body.send({ type: "data-notice", data: { code: "save_failed" }, transient: true });
      body.close();
    });
    const headers = new Headers({ ...SSE_HEADERS, ...cors });
    if (visitor.setCookie) headers.set("Set-Cookie", visitor.setCookie);
    return new Response(body.body, { headers });
  } catch (error) {
    if (error instanceof HttpError) return fail(error);
    if (error instanceof StoreUnavailableError) {
      console.error("KV unavailable before the stream:", error.cause ?? error);
      return fail(
        new HttpError("unavailable", "Storage is unavailable right now. Please try again shortly."),
      );
    }
    throw error;
  }
}

/** The chat's saved messages for its owner; another visitor's chat answers exactly like a missing one. */
async function loadOwnHistory(
  app: Ctx["app"],
  chatId: string,
  visitorId: string,
): Promise<ChatMessage[]> {
  const chat = await app.store.getChat(chatId);
  if (chat && chat.visitorId !== visitorId) {
    throw new HttpError("not_found", `Chat "${chatId}" not found.`);
  }
  return chat ? await app.store.loadMessages(chatId) as ChatMessage[] : [];
}

/** Id of a new assistant message. */
function newMessageId(): string {
  return `msg_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
}

function clientIp(ctx: Ctx): string {
  // The peer address; X-Forwarded-For is not trusted since clients could forge it.
  return typeof ctx.state.remoteAddr === "string" ? ctx.state.remoteAddr : "unknown";
}

interface SaveJob {
  chatId: string;
  visitorId: string;
  truncateTo: number;
  newUser: ChatMessage | null;
  /** The answer as streamed (possibly empty when stopped before its first token). */
  answer: ChatMessage;
}

/** Saves the turn, retrying with backoff; resolves to success (failures are logged). */
async function saveTurn(ctx: Ctx, job: SaveJob): Promise<boolean> {
  const { app } = ctx;
  const append: ChatMessage[] = [];
  if (job.newUser) append.push(job.newUser);
  append.push(job.answer);
  const title = job.newUser ? fallbackTitle(job.newUser) : undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      await app.store.saveTurn({
        chatId: job.chatId,
        visitorId: job.visitorId,
        truncateTo: job.truncateTo,
        append,
        title,
      });
      return true;
    } catch (error) {
      console.error(`Chat ${job.chatId}: saving the turn failed (attempt ${attempt + 1}):`, error);
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
  return false;
}
