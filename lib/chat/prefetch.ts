/**
 * Retrieval before the first model call (`retrieval: "prefetch"`): the turn searches
 * the site for the visitor's question itself, as the `search_site` call a model would
 * make first, so the answer starts after one provider round trip instead of two. The
 * engine plays the call as a step of its own (lib/chat/engine/prefetch_step.ts); the
 * model keeps the tool and can search again with other words.
 */
import type { ModelMessage, ToolSet } from "ai";
import type { Retrieval } from "@/lib/config.ts";
import type { PrefetchCall } from "./engine/prefetch_step.ts";
import { SEARCH_TOOL } from "@/lib/tools/mod.ts";
import { ARTIFACT_TOOL } from "@/lib/artifacts/types.ts";
import { isDiagramRequest } from "@/lib/search/diagram_request.ts";
import { smallTalk } from "@/lib/text/courtesy.ts";
import { plainQuestion } from "@/lib/text/visitor_question.ts";
import {
  CONTACT_TOOL_NAME,
  isAskForMissing,
  isContactRequest,
} from "@/lib/models/local_contact.ts";

/** The longest query `search_site` accepts (its input schema). */
export const MAX_QUERY_CHARS = 500;

/** What decides the prefetch of a turn. */
export interface PrefetchOptions {
  retrieval: Retrieval;
  /** The conversation as the model reads it, ending with the question to answer. */
  messages: readonly ModelMessage[];
  /** Whether the turn continues an answer (approvals, browser results): nothing to prefetch. */
  continued: boolean;
  tools: ToolSet;
}

/**
 * The site search to run before the first model call: on the text of the visitor's
 * latest message, when the turn starts a new answer (a question, an edit, a regenerate)
 * whose last message is that question. Null in `"tool"` mode, for a continued answer,
 * for a question without text, for one that clearly needs no site content (see
 * {@linkcode isOwnerMessage}), and for a request to draw how the assistant works (see
 * {@linkcode isDiagramMessage}).
 */
export function prefetchCall(options: PrefetchOptions): PrefetchCall | null {
  if (options.retrieval !== "prefetch" || options.continued) return null;
  if (!Object.hasOwn(options.tools, SEARCH_TOOL)) return null;
  const last = options.messages.at(-1);
  if (last?.role !== "user") return null;
  const query = searchQuery(last);
  if (!query || isOwnerMessage(options.messages, options.tools)) return null;
  // "Oi, tudo bem?" needs no passages: a search would cite a page that shares a word with it.
  // "Who are you?" is searched: a company's About page may answer it.
  const talk = smallTalk(query);
  if (talk && talk.kind !== "who") return null;
  if (isDiagramMessage(query, options.tools)) return null;
  return { toolCallId: newCallId(), toolName: SEARCH_TOOL, input: { query } };
}

/**
 * The query for a question: its text parts without the greeting or thanks around them and
 * with its chat spellings written out, as the offline model reads them (so its answers are the
 * same in both modes), cut to what the tool accepts.
 */
export function searchQuery(message: ModelMessage & { role: "user" }): string {
  const text = plainQuestion(textOf(message.content).trim());
  if (text.length <= MAX_QUERY_CHARS) return text;
  // Whole words, and never half of a surrogate pair.
  const cut = text.slice(0, MAX_QUERY_CHARS + 1);
  const space = cut.search(/\s\S*$/);
  return (space > 0 ? cut.slice(0, space) : cut.slice(0, MAX_QUERY_CHARS))
    .replace(/[\uD800-\uDBFF]$/, "").trim();
}

/**
 * Whether the visitor's latest message is for the site owner, when the contact tool is there
 * to take it: a request to leave a message, or the contact details the assistant asked for.
 * Such a message needs no passages, and a search would only add unrelated sources to the
 * approval card's answer. Skipping it costs the site-search eval nothing: no question about
 * the site reads as one (tests/bench/prefetch_citations.ts counts the skips).
 */
export function isOwnerMessage(messages: readonly ModelMessage[], tools: ToolSet): boolean {
  if (!Object.hasOwn(tools, CONTACT_TOOL_NAME)) return false;
  const last = messages.at(-1);
  if (last?.role !== "user") return false;
  if (isContactRequest(searchQuery(last))) return true;
  const before = messages.at(-2);
  return before?.role === "assistant" && isAskForMissing(textOf(before.content));
}

/**
 * Whether `query` asks to draw how the assistant works, when `create_artifact` can draw it.
 * The drawing searches with words of its own (the offline model: lib/models/local_diagram.ts
 * `DIAGRAM_QUERY`, which finds the page that explains the assistant; a model picks its own),
 * so a search on the visitor's words would only be a second search shown to the visitor,
 * with sources the drawing does not use.
 */
export function isDiagramMessage(query: string, tools: ToolSet): boolean {
  return Object.hasOwn(tools, ARTIFACT_TOOL) && isDiagramRequest(query);
}

function textOf(content: ModelMessage["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join(" ").trim();
}

/** A tool call id in the form providers accept (`[A-Za-z0-9_-]`, as OpenAI's own). */
function newCallId(): string {
  return `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}
