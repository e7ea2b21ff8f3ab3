/**
 * Types of OpenAPI agents: what a site owner declares ({@linkcode AgentConfig}) and
 * what the spec loader builds from it ({@linkcode AgentOperation}, one per tool).
 *
 * Browser-safe: types and one error class only, no Deno APIs, no npm imports.
 *
 * @example
 * ```ts
 * const contact: AgentConfig = {
 *   id: "contact",
 *   name: "Contact",
 *   description: "Sends a message to the site owner.",
 *   spec: "static/agents/contact.yaml",
 *   baseUrl: "https://api.example.com/v1",
 *   runIn: "server",
 *   headers: { Authorization: "Bearer ${CONTACT_API_TOKEN}" },
 * };
 * ```
 */
import type { LocalizedText } from "@/lib/i18n/localized.ts";

/** Where an agent's HTTP calls are made from. */
export type AgentRunIn = "server" | "browser";

/** An owner's override of the method rule for one operation. */
export type ApprovalRule = "always" | "never";

/**
 * Which calls of an agent wait for the visitor: `"writes"` every method but GET and HEAD,
 * `"all"` reads too (a GET's query string can carry chat data out: see
 * docs/agents-security.md).
 */
export type ApprovalMode = "writes" | "all";

/** One agent as the site owner declares it. */
export interface AgentConfig {
  /** Stable id, `^[a-z0-9][a-z0-9_-]{0,63}$`; used in logs and error messages. */
  id: string;
  /**
   * Shown to visitors (the agent picker, answers' labels, the approval card): one string,
   * or one per language (`{ "pt-BR": "…", en: "…" }`).
   */
  name: LocalizedText;
  /** What the agent is for (the picker's hint): one string, or one per language. */
  description: LocalizedText;
  /** A path under `static/agents/` (e.g. `static/agents/contact.yaml`) or an https URL. */
  spec: string;
  /**
   * Where requests go; the spec's `servers` are ignored (baseUrl wins, even when its
   * host differs). Every request must stay under this origin and path prefix.
   */
  baseUrl: string;
  /** `"browser"` sends the calls from the visitor's machine (e.g. to their localhost). */
  runIn: AgentRunIn;
  /**
   * Headers added to every call (e.g. auth). A value may reference the environment as
   * `${ENV_NAME}`; such values are secrets: redacted on the approval card and refused
   * for agents that run in the browser.
   */
  headers?: Record<string, string>;
  /**
   * Which calls wait for the visitor's approval by default: `"writes"` (the default) or
   * `"all"`, reads included.
   */
  approvalMode?: ApprovalMode;
  /**
   * Per `operationId`, over `approvalMode`: `"always"` asks the visitor, `"never"` runs at
   * once (under `"all"`, the allow-list of operations that need no approval).
   */
  approval?: Record<string, ApprovalRule>;
  /** May call private or loopback addresses (e.g. an API on localhost). */
  local?: boolean;
}

/** The HTTP methods an OpenAPI path item may hold, upper-case. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "TRACE";

/** A JSON Schema object (as used in tool input schemas). */
export type JsonSchema = { [keyword: string]: unknown };

/** Where a parameter travels. Cookie parameters are not supported. */
export type ParameterLocation = "path" | "query" | "header";

/** One parameter of an operation. */
export interface AgentParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  description?: string;
  /** JSON Schema of the value (normalised from the spec's schema). */
  schema: JsonSchema;
}

/** An operation's JSON request body. */
export interface AgentRequestBody {
  required: boolean;
  description?: string;
  /** JSON Schema of the body (normalised; `readOnly` properties removed). */
  schema: JsonSchema;
}

/** One operation of an agent's spec: a tool of the chat. */
export interface AgentOperation {
  agentId: string;
  /** The tool's name: the `operationId`. */
  toolName: string;
  method: HttpMethod;
  /** The spec's path, e.g. `/messages/{id}`, appended to the agent's baseUrl. */
  pathTemplate: string;
  summary?: string;
  description?: string;
  parameters: Record<ParameterLocation, AgentParameter[]>;
  /** Present when the operation takes a JSON body. */
  requestBody?: AgentRequestBody;
  /** The tool's input: parameters by name and the JSON body under `body`. */
  inputSchema: JsonSchema;
  /** Whether a call waits for the visitor: `approvalMode`, then `approval` (`operationNeedsApproval`). */
  needsApproval: boolean;
  /** What the approval card tells a visitor, from the operation's `x-visitor` (optional). */
  visitor?: VisitorTexts;
}

/**
 * An operation's texts for visitors (`x-visitor` in the spec): `summary`, one plain sentence of
 * what approving does ("Send your message to the site team"), and `labels`, the name of each
 * field the visitor checks, by field name (`email`) or key (`body.email`). The spec's own
 * `summary` and `description` are written for the model, in one language.
 */
export interface VisitorTexts {
  summary?: LocalizedText;
  labels?: Record<string, LocalizedText>;
}

/**
 * A mistake in an agent's configuration or spec; it stops the build or the start.
 * The message names the agent, the operation when there is one, and the fix.
 */
export class AgentConfigError extends Error {
  constructor(
    message: string,
    readonly agentId: string,
    readonly operationId?: string,
  ) {
    super(message);
    this.name = "AgentConfigError";
  }
}
