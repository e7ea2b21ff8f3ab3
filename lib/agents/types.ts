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
import type { RunIn } from "@/lib/protocol/approval.ts";

/** Where an agent's HTTP calls are made from. */
export type AgentRunIn = RunIn;

/** An owner's override of the method rule for one operation. */
export type ApprovalRule = "always" | "never";

/**
 * Which calls of an agent wait for the visitor: `"writes"` every method but GET and HEAD,
 * `"all"` reads too (a GET's query string can carry chat data out: see
 * docs/agents-security.md).
 */
export type ApprovalMode = "writes" | "all";

/** What every agent declares, whatever it speaks. */
interface AgentCommon {
  /** Stable id, `^[a-z0-9][a-z0-9_-]{0,63}$`; used in logs and error messages. */
  id: string;
  /**
   * Shown to visitors (the agent picker, answers' labels, the approval card): one string,
   * or one per language (`{ "pt-BR": "…", en: "…" }`).
   */
  name: LocalizedText;
  /** What the agent is for (the picker's hint): one string, or one per language. */
  description: LocalizedText;
  /**
   * Where requests go; the spec's `servers` are ignored (baseUrl wins, even when its
   * host differs). Every request must stay under this origin and path prefix. For an MCP
   * agent, the server's Streamable HTTP endpoint (e.g. `https://docs.example.com/mcp`).
   */
  baseUrl: string;
  /**
   * Headers added to every call (e.g. auth). A value may reference the environment as
   * `${ENV_NAME}`; such values are secrets: redacted on the approval card and refused
   * for agents that run in the browser.
   */
  headers?: Record<string, string>;
  /**
   * Which calls wait for the visitor's approval by default: `"writes"` (the default) or
   * `"all"`, reads included. OpenAPI agents only: every call of an MCP agent waits unless
   * `autoRunReadOnly` or `approval` says otherwise.
   */
  approvalMode?: ApprovalMode;
  /**
   * Per `operationId` (an MCP agent: per tool name, as the server names it), over the
   * default rule: `"always"` asks the visitor, `"never"` runs at once.
   */
  approval?: Record<string, ApprovalRule>;
  /** May call private or loopback addresses (e.g. an API on localhost). */
  local?: boolean;
}

/** An agent described by an OpenAPI 3 spec: each operation is a tool. */
export interface OpenApiAgentConfig extends AgentCommon {
  kind?: "openapi";
  /** A path under `static/agents/` (e.g. `static/agents/contact.yaml`) or an https URL. */
  spec: string;
  /** `"browser"` sends the calls from the visitor's machine (e.g. to their localhost). */
  runIn: AgentRunIn;
}

/**
 * A remote MCP server (Streamable HTTP) at `baseUrl`: each of its tools is a tool of the
 * chat, named `<id>_<tool>`. Its calls are made from the server only.
 */
export interface McpAgentConfig extends AgentCommon {
  kind: "mcp";
  runIn?: "server";
  /**
   * Tools the server marks `readOnlyHint: true` run without asking the visitor (default
   * false: every call waits). The hint is the server's word: set this only for a server
   * you trust.
   */
  autoRunReadOnly?: boolean;
  /** Only these tools of the server (by its names) become tools of the chat; default all. */
  tools?: string[];
}

/** One agent as the site owner declares it: an OpenAPI spec or a remote MCP server. */
export type AgentConfig = OpenApiAgentConfig | McpAgentConfig;

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
  /** Present for a tool of an MCP agent: the call is a JSON-RPC `tools/call` to `baseUrl`. */
  mcp?: McpToolRef;
}

/** Which tool of an MCP server an operation calls, and what the server says of it. */
export interface McpToolRef {
  /** The tool's name on the server (the chat's tool name is `<agent id>_<name>`). */
  tool: string;
  /** The server's `readOnlyHint` annotation (a hint, not a guarantee). */
  readOnly: boolean;
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
