/**
 * The offline model "local": an in-process AI SDK language model (spec v4) that
 * never generates text. It calls `search_site` with the visitor's question, then
 * answers extractively from the returned passages with `[N]` citations, or says
 * plainly that the site does not cover the question.
 *
 * A request to message the site owner, when the contact agent's `sendMessageToOwner`
 * is among the tools, is proposed as that call instead, with the name, email and
 * message read from the visitor's words (lib/models/local_contact.ts); when one is
 * missing it asks for it. Once the call's result or the visitor's denial is back, it
 * answers in one sentence.
 *
 * A request to draw how the assistant works becomes a search and then an SVG artifact
 * laid out from the headings found (lib/models/local_diagram.ts).
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import {
  type AnswerLang,
  type AnswerPassage,
  buildExtractiveAnswer,
  detectLang,
  isNotCoveredAnswer,
  notCoveredAnswer,
} from "./extractive.ts";
import { isSpace, runEnd } from "@/lib/text/scan.ts";
import {
  askForMissing,
  CONTACT_TOOL_NAME,
  contactAnswer,
  contactOutcome,
  isAskForMissing,
  isContactRequest,
  readContactRequest,
} from "./local_contact.ts";
import { diagramPlan } from "./local_diagram.ts";
import { smallTalkReply } from "./local_small_talk.ts";
import { interfaceLang } from "./interface_lang.ts";
import { langEvidence } from "@/lib/search/detect_lang.ts";
import { vocabularyLang } from "@/lib/search/lexicon.ts";
import { smallTalk, withoutCourtesy } from "@/lib/text/courtesy.ts";
import { plainQuestion } from "@/lib/text/visitor_question.ts";
import { askedPart } from "@/lib/search/asked_part.ts";
import { ARTIFACT_TOOL } from "@/lib/artifacts/types.ts";
import type { SearchTranslation } from "@/lib/protocol/ui_message.ts";

/** Name of the site search tool the offline model calls. */
export const SEARCH_TOOL_NAME = "search_site";

/** Options of {@linkcode createLocalModel}. */
export interface LocalModelOptions {
  /** Pause between streamed words, in ms (default 0: no artificial delay). */
  delayMs?: number;
  /** Tool call ids (default: random `call_local_…`). */
  generateId?: () => string;
}

type Plan =
  | { kind: "tool-call"; toolCallId: string; toolName: string; input: string }
  | { kind: "text"; text: string };

const NO_SEARCH_TOOL: Record<AnswerLang, string> = {
  pt:
    "Este assistente offline só responde citando o site, e a pesquisa do site não está disponível agora.",
  en:
    "This offline assistant only answers by quoting the site, and the site search is not available right now.",
};

const SEARCH_FAILED: Record<AnswerLang, string> = {
  pt: "Não consegui pesquisar o site agora. Tente de novo daqui a pouco.",
  en: "I could not search the site just now. Please try again shortly.",
};

const DONE: Record<AnswerLang, string> = { pt: "Feito.", en: "Done." };

/**
 * Creates the offline model.
 *
 * @example
 * ```ts
 * const result = streamText({ model: createLocalModel(), tools: { search_site }, prompt: "Quem é a Ana?", stopWhen: isStepCount(3) });
 * ```
 */
export function createLocalModel(options: LocalModelOptions = {}): LanguageModelV4 {
  const delayMs = options.delayMs ?? 0;
  const generateId = options.generateId ??
    (() => `call_local_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`);

  return {
    specificationVersion: "v4",
    provider: "offline",
    modelId: "local",
    supportedUrls: {},

    // deno-lint-ignore require-await
    async doGenerate(call) {
      throwIfAborted(call.abortSignal);
      return generated(call, planCall(call, generateId));
    },

    // deno-lint-ignore require-await
    async doStream(call) {
      throwIfAborted(call.abortSignal);
      const p = planCall(call, generateId);
      return {
        stream: streamParts(streamedParts(call, p), {
          delayMs,
          deltaKinds: new Set(p.kind === "tool-call" ? [] : ["text-delta"]),
          signal: call.abortSignal,
        }),
        request: { body: { prompt: call.prompt } },
      };
    },
  };
}

/**
 * What the offline model does for a call: answer a contact request's result, ask to contact
 * the owner, draw a diagram, answer from the latest search, search the question, or close.
 */
function planCall(call: LanguageModelV4CallOptions, generateId: () => string): Plan {
  const { prompt } = call;
  const question = lastUserText(prompt);
  // A short follow-up ("GIL?") says nothing of its language: the visitor's earlier
  // messages do. Keywords with no function word ("copy file python?") tell it by their words.
  const worded = langEvidence(question) ? null : vocabularyLang(question);
  const earlier = worded ?? conversationLang(prompt);
  const ui = interfaceLang(prompt);
  const lang = detectLang(question, earlier ?? ui ?? "pt");
  const last = prompt.at(-1);
  const contact = latestToolResult(prompt, CONTACT_TOOL_NAME);
  if (contact !== undefined) {
    const outcome = contactOutcome(contact);
    return { kind: "text", text: contactAnswer(outcome, detectLang(contactText(prompt))) };
  }
  const toolsOff = call.toolChoice?.type === "none";
  // A search the turn ran before this call (retrieval "prefetch") does not make a contact
  // request a question about the site: the request is read as if nothing followed it.
  if (!toolsOff && hasTool(call, CONTACT_TOOL_NAME) && onlySearchesSince(prompt)) {
    const request = contactPlan(prompt);
    if (request) {
      return request.kind === "text" ? request : { ...request, toolCallId: generateId() };
    }
  }
  const result = latestSearchResult(prompt);
  // "Draw a diagram of how the assistant works": search, then an SVG artifact (local_diagram.ts).
  const toolsOn = call.toolChoice?.type !== "none";
  const diagram = diagramPlan({
    prompt,
    question,
    lang,
    canSearch: toolsOn && hasTool(call, SEARCH_TOOL_NAME),
    canDraw: toolsOn && hasTool(call, ARTIFACT_TOOL),
    searched: result,
  });
  if (diagram) {
    return diagram.kind === "text" ? diagram : { ...diagram, toolCallId: generateId() };
  }
  // "Oi, tudo bem?" is answered as small talk, not with a page that shares a word with it;
  // "Who are you?" only when the site has no page that answers it (an About page would).
  const talk = last?.role === "user" || result !== undefined ? smallTalk(question) : null;
  const talkReply = talk &&
    smallTalkReply(talk.kind, talk.lang ?? lang, {
      contact: !toolsOff && hasTool(call, CONTACT_TOOL_NAME),
    });
  if (talk && talkReply && talk.kind !== "who") return { kind: "text", text: talkReply };
  // The answer reads the question as the search does: without its greeting or thanks, with its
  // chat spellings written out (lib/text/visitor_question.ts), and without what the visitor
  // tells about themselves around a question that stands on its own (lib/search/asked_part.ts).
  const polite = withoutCourtesy(question);
  const asked = askedPart(plainQuestion(question));
  if (result !== undefined) {
    if (result === null) return { kind: "text", text: SEARCH_FAILED[lang] };
    const text = buildExtractiveAnswer(asked, result, {
      // "Hi, GIL?": the greeting dropped from the question still tells its language; so
      // does the search that translated "tupla vs lista?" for an English-only site.
      fallbackLang: earlier ?? latestTranslatedFrom(prompt) ?? wordAndPagesLang(asked, result) ??
        (polite === question ? ui : lang),
      translation: latestSearchOutput(prompt, translationOf) ?? undefined,
    });
    return { kind: "text", text: talkReply && isNotCoveredAnswer(text) ? talkReply : text };
  }
  if (last?.role === "user") {
    if (!hasTool(call, SEARCH_TOOL_NAME) || toolsOff) {
      return { kind: "text", text: NO_SEARCH_TOOL[lang] };
    }
    if (!asked.trim()) return { kind: "text", text: notCoveredAnswer(lang) };
    return {
      kind: "tool-call",
      toolCallId: generateId(),
      toolName: SEARCH_TOOL_NAME,
      input: JSON.stringify({ query: asked.trim() }),
    };
  }
  // Another tool's result (or an assistant turn) closes the turn.
  return { kind: "text", text: DONE[lang] };
}

/** `doGenerate`'s result for plan `p`. */
function generated(
  call: LanguageModelV4CallOptions,
  p: Plan,
): Awaited<ReturnType<LanguageModelV4["doGenerate"]>> {
  const content: LanguageModelV4Content[] = p.kind === "tool-call"
    ? [{
      type: "tool-call",
      toolCallId: p.toolCallId,
      toolName: p.toolName,
      input: p.input,
    }]
    : [{ type: "text", text: p.text }];
  return {
    content,
    finishReason: finishReason(p),
    usage: planUsage(call, p),
    warnings: [],
    response: { id: `local-${Date.now()}`, modelId: "local", timestamp: new Date() },
  };
}

/** The stream parts of plan `p`: its tool call, or its text word by word; then the finish. */
function streamedParts(call: LanguageModelV4CallOptions, p: Plan): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    {
      type: "response-metadata",
      id: `local-${Date.now()}`,
      modelId: "local",
      timestamp: new Date(),
    },
  ];
  if (p.kind === "tool-call") {
    parts.push(
      { type: "tool-input-start", id: p.toolCallId, toolName: p.toolName },
      { type: "tool-input-delta", id: p.toolCallId, delta: p.input },
      { type: "tool-input-end", id: p.toolCallId },
      {
        type: "tool-call",
        toolCallId: p.toolCallId,
        toolName: p.toolName,
        input: p.input,
      },
    );
  } else {
    const id = "text-0";
    parts.push({ type: "text-start", id });
    for (const delta of wordDeltas(p.text)) parts.push({ type: "text-delta", id, delta });
    parts.push({ type: "text-end", id });
  }
  parts.push({ type: "finish", finishReason: finishReason(p), usage: planUsage(call, p) });
  return parts;
}

function planUsage(call: LanguageModelV4CallOptions, p: Plan): LanguageModelV4Usage {
  return usage(
    countWords(promptText(call.prompt)),
    countWords(p.kind === "text" ? p.text : p.input),
  );
}

function finishReason(p: Plan): LanguageModelV4FinishReason {
  return p.kind === "tool-call"
    ? { unified: "tool-calls", raw: "tool-calls" }
    : { unified: "stop", raw: "stop" };
}

function usage(input: number, output: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function hasTool(call: LanguageModelV4CallOptions, name: string): boolean {
  return (call.tools ?? []).some((t) => t.type === "function" && t.name === name);
}

function lastUserIndex(prompt: LanguageModelV4Prompt): number {
  for (let i = prompt.length - 1; i >= 0; i--) if (prompt[i].role === "user") return i;
  return -1;
}

/**
 * The language of all the visitor's messages together, or undefined when they hold no
 * word of either language.
 */
function conversationLang(prompt: LanguageModelV4Prompt): AnswerLang | undefined {
  const text = prompt.flatMap((m) =>
    m.role === "user" ? m.content.map((part) => (part.type === "text" ? part.text : "")) : []
  ).join(" ").slice(-2000);
  const lang = detectLang(text, "pt");
  return lang === detectLang(text, "en") ? lang : undefined;
}

/** Text of the visitor's latest message. */
export function lastUserText(prompt: LanguageModelV4Prompt): string {
  const message = prompt[lastUserIndex(prompt)];
  if (!message || message.role !== "user") return "";
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join(" ").trim();
}

/**
 * The visitor's contact request, read from their latest message and, when the model
 * asked for missing details, the messages that led to that question: the call of
 * `sendMessageToOwner` when name, email and message are all there, else the question
 * for what is missing; null when the visitor is not asking to message the owner.
 */
function contactPlan(
  prompt: LanguageModelV4Prompt,
): { kind: "text"; text: string } | { kind: "tool-call"; toolName: string; input: string } | null {
  const texts = contactTexts(prompt);
  const text = texts.join("\n");
  if (!isContactRequest(text)) return null;
  const lang = detectLang(text);
  const request = readContactRequest(text);
  // A follow-up that is just "Ana" or "Ana, ana@example.com" names the visitor.
  request.name ??= texts.length > 1 ? leadingName(texts.at(-1)!) : null;
  if (!request.name || !request.email || !request.message) {
    return { kind: "text", text: askForMissing(request, lang) };
  }
  const body = { name: request.name, email: request.email, message: request.message };
  return { kind: "tool-call", toolName: CONTACT_TOOL_NAME, input: JSON.stringify({ body }) };
}

/**
 * The visitor's latest message and, when the model had asked for missing contact details,
 * the messages before that question (at most 3 rounds), oldest first.
 */
function contactTexts(prompt: LanguageModelV4Prompt): string[] {
  const last = lastUserIndex(prompt);
  const texts = [messageText(prompt[last])];
  for (let i = last - 1; i >= 1 && texts.length < 4; i -= 2) {
    if (!isAskForMissing(messageText(prompt[i])) || prompt[i - 1].role !== "user") break;
    texts.unshift(messageText(prompt[i - 1]));
  }
  return texts;
}

function contactText(prompt: LanguageModelV4Prompt): string {
  return contactTexts(prompt).join("\n");
}

function leadingName(text: string): string | null {
  return /^\s*(\p{Lu}[\p{L}'’-]*(?:[ \t]+\p{Lu}[\p{L}'’-]*){0,3})(?![\p{L}@.])/u.exec(text)?.[1] ??
    null;
}

/** The text parts of a user or assistant message. */
function messageText(message: LanguageModelV4Prompt[number] | undefined): string {
  if (!message || (message.role !== "user" && message.role !== "assistant")) return "";
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join(" ").trim();
}

/** Whether everything after the visitor's latest message is `search_site` calls and results. */
function onlySearchesSince(prompt: LanguageModelV4Prompt): boolean {
  return prompt.slice(lastUserIndex(prompt) + 1).every((message) =>
    (message.role === "assistant" || message.role === "tool") &&
    message.content.every((part) =>
      (part.type === "tool-call" || part.type === "tool-result") &&
      part.toolName === SEARCH_TOOL_NAME
    )
  );
}

/** The output of the latest result of `toolName` after the visitor's latest message. */
function latestToolResult(prompt: LanguageModelV4Prompt, toolName: string): unknown {
  let found: unknown = undefined;
  for (const message of prompt.slice(lastUserIndex(prompt) + 1)) {
    if (message.role !== "tool" && message.role !== "assistant") continue;
    for (const part of message.content) {
      if (part.type === "tool-result" && part.toolName === toolName) found = part.output;
    }
  }
  return found;
}

/**
 * The passages of the latest `search_site` result after the visitor's latest message:
 * undefined when there is none, null when the tool failed or was denied.
 */
function latestSearchResult(prompt: LanguageModelV4Prompt): AnswerPassage[] | null | undefined {
  return latestSearchOutput(prompt, passagesOf);
}

/**
 * "history?" on the Portuguese interface: a word of one language's vocabulary only, and every
 * public page the search found written in that language — the visitor wrote in it. A loanword
 * the site's pages in the interface's language use too ("cookie?") finds those pages: null.
 */
function wordAndPagesLang(question: string, passages: AnswerPassage[]): AnswerLang | null {
  const word = vocabularyLang(question, undefined, 1);
  if (!word) return null;
  const quotable = passages.filter((p) => typeof p.n === "number" && p.url !== null);
  return quotable.length && quotable.every((p) => detectLang(p.text, word) === word) ? word : null;
}

/** The language the latest search read the question in, when it translated it. */
function latestTranslatedFrom(prompt: LanguageModelV4Prompt): AnswerLang | undefined {
  return latestSearchOutput(prompt, translatedFromOf) ?? undefined;
}

/** `read` of the last `search_site` result since the visitor's last message. */
function latestSearchOutput<T>(
  prompt: LanguageModelV4Prompt,
  read: (output: unknown) => T,
): T | undefined {
  const from = lastUserIndex(prompt);
  let found: T | undefined;
  for (const message of prompt.slice(from + 1)) {
    if (message.role !== "tool" && message.role !== "assistant") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result" || part.toolName !== SEARCH_TOOL_NAME) continue;
      found = read(part.output);
    }
  }
  return found;
}

/** `translatedFrom` of a search tool output (see lib/protocol/ui_message.ts), or null. */
function translatedFromOf(output: unknown): AnswerLang | null {
  const value = isObject(output) && output.type === "json" ? output.value : output;
  const lang = isObject(value) ? value.translatedFrom : undefined;
  return lang === "pt" || lang === "en" ? lang : null;
}

/** `translation` of a search tool output (see lib/protocol/ui_message.ts), or null. */
function translationOf(output: unknown): SearchTranslation | null {
  const value = isObject(output) && output.type === "json" ? output.value : output;
  const t = isObject(value) ? value.translation : undefined;
  if (!isObject(t) || !isLang(t.from) || !isLang(t.to) || !Array.isArray(t.words)) return null;
  const words = t.words.filter((g): g is string[] =>
    Array.isArray(g) && g.every((w) => typeof w === "string")
  );
  return { from: t.from, to: t.to, words };
}

const isLang = (v: unknown): v is AnswerLang => v === "pt" || v === "en";

/** Reads `{ mode, passages }` from a tool output, wrapped (`{ type: "json", value }`) or not. */
export function passagesOf(
  output: LanguageModelV4ToolResultOutput | unknown,
): AnswerPassage[] | null {
  let value: unknown = output;
  if (isObject(output) && typeof output.type === "string" && "value" in output) {
    if (output.type === "error-text" || output.type === "error-json") return null;
    value = output.value;
  } else if (isObject(output) && output.type === "execution-denied") {
    return null;
  }
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!isObject(value) || !Array.isArray(value.passages)) return null;
  // lib/tools/search_site.ts reports a failed search as mode "unavailable".
  if (value.mode === "unavailable") return null;
  return value.passages.filter((p): p is AnswerPassage =>
    isObject(p) && typeof p.text === "string" && typeof p.title === "string"
  ).map((p) => ({
    n: typeof p.n === "number" ? p.n : undefined,
    title: p.title,
    url: typeof p.url === "string" ? p.url : null,
    text: p.text,
    score: typeof p.score === "number" ? p.score : 0,
    ...(typeof p.match === "number" ? { match: p.match } : {}),
  }));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object";
}

function promptText(prompt: LanguageModelV4Prompt): string {
  const out: string[] = [];
  for (const message of prompt) {
    if (message.role === "system") {
      out.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") out.push(part.text);
      else if (part.type === "tool-call") out.push(JSON.stringify(part.input ?? ""));
      else if (part.type === "tool-result") out.push(JSON.stringify(part.output));
    }
  }
  return out.join(" ");
}

/** Words counted as tokens (the offline model has no tokenizer). */
function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Splits text into word-sized deltas that concatenate back to the text. */
export function wordDeltas(text: string): string[] {
  // An index scan: `/\s*\S+\s*/g` retries from every space of a space-only tail (quadratic).
  const out: string[] = [];
  let start = 0;
  let i = runEnd(text, isSpace);
  while (i < text.length) {
    i = runEnd(text, isSpace, runEnd(text, (c) => !isSpace(c), i));
    out.push(text.slice(start, i));
    start = i;
  }
  return out;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw abortError(signal);
}

function streamParts(
  parts: LanguageModelV4StreamPart[],
  options: { delayMs: number; deltaKinds: Set<string>; signal?: AbortSignal },
): ReadableStream<LanguageModelV4StreamPart> {
  const { delayMs, deltaKinds, signal } = options;
  let index = 0;
  let closed = false;
  let onAbort: (() => void) | undefined;
  const detach = () => {
    closed = true;
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  };
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      if (!signal) return;
      onAbort = () => {
        if (closed) return;
        detach();
        controller.error(abortError(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      if (closed) return;
      if (index >= parts.length) {
        detach();
        controller.close();
        return;
      }
      const part = parts[index];
      if (delayMs > 0 && deltaKinds.has(part.type) && index > 0) {
        await sleep(delayMs, signal);
        if (closed) return;
      }
      controller.enqueue(part);
      index++;
    },
    cancel() {
      detach();
    },
  });
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
