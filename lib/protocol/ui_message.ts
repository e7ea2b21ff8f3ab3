/**
 * The UI message type of this app: the AI SDK's UIMessage with our metadata.
 * Client-safe (type-only imports).
 */
import type { ToolUIPart, UIMessage } from "ai";
import type { TokenUsage } from "./usage.ts";

/**
 * How an answer's turn ended. An answer is saved as "interrupted" when its turn starts and
 * replaced when the turn ends, so "interrupted" stays only when the server died mid-answer.
 */
export type AnswerOutcome =
  | "finished"
  | "stopped"
  | "failed"
  | "interrupted"
  | "step-limit"
  | "awaiting-approval";

/** Metadata the server attaches to every assistant message. */
export interface ChatMessageMetadata {
  /** Which assistant answered (a model id, or an OpenAPI agent later). */
  agentId?: string;
  model?: string;
  createdAt?: number;
  usage?: TokenUsage;
  costUsd?: number | null;
  /** Time from the request to the end of the answer. */
  latencyMs?: number;
  /** Time from the request to the first streamed token. */
  ttftMs?: number;
  finishReason?: string;
  /** How the turn ended; absent on answers saved before outcomes were recorded. */
  outcome?: AnswerOutcome;
  citations?: { valid: number; invalid: number };
  /** How the upstream calls went (gateway, direct, retry). */
  routes?: string[];
  /** The visitor's rating of the answer. */
  feedback?: { rating: "up" | "down"; comment?: string };
  /**
   * Earlier answers to the same question, oldest first, kept when the visitor regenerated
   * (shown as "1/2 ‹ ›"); absent on answers never regenerated and on chats saved before.
   */
  earlier?: EarlierAnswer[];
}

/** An answer a regenerate replaced, as kept on its successor (without its own `earlier`). */
export interface EarlierAnswer {
  id: string;
  parts: UIMessage["parts"];
  metadata?: Omit<ChatMessageMetadata, "earlier" | "feedback">;
}

/** A message of this app. */
export type ChatMessage = UIMessage<ChatMessageMetadata>;

/** A passage of a public page, as the UI and the model see it: numbered, citable. */
export interface PublicPassage {
  n: number;
  title: string;
  url: string;
  text: string;
  score: number;
  /** Share of the query's weight the passage holds (lib/search/types.ts `Passage.match`). */
  match?: number;
  /**
   * An FAQ entry whose own question holds a word of the search's query: the chat may offer
   * it under the answer as a related question (lib/text/related_questions.ts).
   */
  relatedQuestion?: true;
  ref?: never;
  internal?: never;
}

/**
 * What the UI and KV get for a passage of an internal document (`url: null` in the
 * manifest): a reference to it, never its text. The model gets the text, resolved on the
 * server by the tool's `toModelOutput`.
 */
export interface InternalPassageRef {
  /** The passage id in the search index (`<docId>#<anchor>`). */
  ref: string;
  title: string;
  internal: true;
  n?: never;
  url?: never;
  text?: never;
}

/**
 * How a search translated the question to search the pages in the other language: each of its
 * content words as a group of senses in `to` (a name or code keeps its own spelling among
 * them). The offline model reads those pages' sentences with it.
 */
export interface SearchTranslation {
  from: "pt" | "en";
  to: "pt" | "en";
  words: string[][];
}

/** An FAQ entry a search ranked past its passages, offered only as a related question. */
export interface RelatedEntry {
  title: string;
  url: string;
  match: number;
}

/** The `search_site` tool's output as the UI and KV see it (the model's view: `toModelOutput`). */
export interface SearchToolOutput {
  mode: "hybrid" | "lexical" | "unavailable";
  passages: Array<PublicPassage | InternalPassageRef>;
  note?: string;
  /**
   * The language the search read the question in, when it translated it into the site's
   * (a Portuguese question over an English-only site): the answer's language.
   */
  translatedFrom?: "pt" | "en";
  /** The question's translation, when the search also looked in the other language. */
  translation?: SearchTranslation;
  /**
   * FAQ entries ranked just past the passages whose question shares the query's words: the
   * chat may offer them as related questions; the model never sees them.
   */
  more?: RelatedEntry[];
}

/** A `search_site` tool part of a message, in any state. */
export type SearchToolPart = ToolUIPart<
  { search_site: { input: { query: string }; output: SearchToolOutput } }
>;
