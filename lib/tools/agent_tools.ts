/**
 * An agent's operations as AI SDK tools, one per operation, named by its `operationId`.
 *
 * A tool of an agent that runs on the server validates its arguments against the
 * operation's input schema, builds the exact request (lib/agents/request.ts) with the
 * agent's resolved headers and the visitor's context header, and sends it under the
 * network policy (lib/agents/fetch_policy.ts). Nothing is sent when the arguments are
 * invalid: the problems come back as `{ error: { status: 0, message } }`, which the
 * model reads and can correct. A tool of an agent that runs in the browser has no
 * `execute`: the visitor's browser runs the request and sends the output back.
 *
 * Agents whose baseUrl is {@linkcode SELF_BASE_URL} (`"self"`) are APIs of this app
 * (the built-in contact agent). Their base URL is the turn's site origin (`site.url`,
 * else the request's), and, when the app is at hand, the request is dispatched to the
 * app in-process instead of over the network: it never leaves the process, so a forged
 * Host header cannot point the call at another machine. Without the app it goes over
 * the network under the ordinary policy (so a loopback origin is refused).
 *
 * Server-only (the tools send requests from the server).
 */
import { Lru } from "@/lib/lru.ts";
import { jsonSchema, type JSONSchema7, tool, type ToolSet } from "ai";
import {
  operationNeedsApproval,
  resolveAgentHeaders,
  secretHeaderNames,
} from "@/lib/agents/agent_config.ts";
import { type AgentCallResult, executeAgentRequest } from "@/lib/agents/fetch_policy.ts";
import { validateArguments } from "@/lib/agents/input_schema.ts";
import { callMcpTool } from "@/lib/agents/mcp_client.ts";
import { CONTEXT_SEAL_HEADER } from "@/lib/agents/context_seal.ts";
import {
  type AgentRequest,
  type AssistantContext,
  buildRequest,
  CONTEXT_HEADER,
  describeRequest,
} from "@/lib/agents/request.ts";
import type { RequestDescription } from "@/lib/protocol/approval.ts";
import type { LoadedAgent } from "@/lib/agents/spec.ts";
import type { AgentConfig, AgentOperation } from "@/lib/agents/types.ts";
import { agentBaseUrl, isSelfAgent } from "../agents/self_agent.ts";
import { localize } from "@/lib/i18n/localized.ts";

export { agentBaseUrl, isSelfAgent, loadableConfig, SELF_BASE_URL } from "../agents/self_agent.ts";

/** A loaded agent ready to run: its configured headers with `${ENV}` references resolved. */
export interface ReadyAgent extends LoadedAgent {
  /** The headers sent with every call; secret values, never shown or logged. */
  headers: Record<string, string>;
}

/** Handles a request as the app does (lib/http/app.ts `App`), for in-process "self" calls. */
export type SelfApp = (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response>;

/** The turn's facts an agent's call needs. */
export interface AgentToolContext {
  chatId: string;
  locale: string;
  /** The visitor's id already hashed ({@linkcode hashVisitorId}); never the cookie's id. */
  visitor: string;
  /** The site's origin for this turn: what a "self" baseUrl stands for. */
  origin: string;
  /** The app, to dispatch calls of "self" agents in-process; absent → over the network. */
  selfApp?: SelfApp | null;
  /** The visitor's address, handed to the app on in-process calls (its per-IP limits). */
  ip?: string;
  /**
   * Seals the context header of a "self" agent's call (lib/agents/context_seal.ts), so the
   * app's own API can tell it from a header a visitor wrote; absent → sent unsealed (ignored).
   */
  sealContext?: (header: string) => Promise<string>;
  /** Options of the network policy (tests point them at loopback servers). */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** What a tool of an agent returns: the answer's data, or why there is none. */
export type AgentToolOutput = { data: unknown } | { error: { status: number; message: string } };

/** The request part of an approval descriptor (lib/chat/approvals.ts `ApprovalDescriptor`). */
export interface ApprovalRequestView {
  /** The exact request, headers redacted, body pretty-printed: what the card shows. */
  request: RequestDescription;
  /** What the card needs to rebuild the request after an edit (browser-safe). */
  edit: { operation: AgentOperation; baseUrl: string };
}

/** Resolves `loaded`'s headers from `env`; a missing variable throws `AgentConfigError`. */
export function readyAgent(
  loaded: LoadedAgent,
  env: Record<string, string | undefined>,
): ReadyAgent {
  return { ...loaded, headers: resolveAgentHeaders(loaded.agent, env) };
}

/** Hashes of the visitors seen lately: a visitor's every turn needs theirs. */
const visitorHashes = new Lru<string, Promise<string>>(1_000);

/** The visitor id as agents see it: SHA-256 under its own domain, base64url, 22 chars. */
export function hashVisitorId(visitorId: string): Promise<string> {
  let hash = visitorHashes.get(visitorId);
  if (!hash) visitorHashes.set(visitorId, hash = hashOf(visitorId));
  return hash;
}

async function hashOf(visitorId: string): Promise<string> {
  const bytes = new TextEncoder().encode(`agent-visitor:${visitorId}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "").slice(0, 22);
}

/**
 * Whether a call of `operation` waits for the visitor: GET and HEAD run at once, other
 * methods wait, unless the agent's `approvalMode` is `"all"` or its `approval` says
 * `"always"` or `"never"` for the operation (lib/agents/agent_config.ts).
 */
export function needsApproval(
  operation: Pick<AgentOperation, "method" | "toolName" | "mcp">,
  agent: Pick<AgentConfig, "approval" | "approvalMode"> & { autoRunReadOnly?: boolean },
): boolean {
  return operationNeedsApproval(operation, agent);
}

/**
 * Checks `input` against the operation's schema and builds the exact request, or says
 * why not (the message names the problem; nothing is sent).
 */
export function prepareRequest(
  operation: AgentOperation,
  ready: ReadyAgent,
  input: unknown,
  context: AgentToolContext,
): { request: AgentRequest } | { error: { status: 0; message: string } } {
  const problems = validateArguments(operation.inputSchema, input);
  if (problems.length) {
    return {
      error: {
        status: 0,
        message: `Invalid arguments for "${operation.toolName}", nothing was sent: ${
          problems.join("; ")
        }`,
      },
    };
  }
  const built = buildRequest(operation, input as Record<string, unknown>, {
    baseUrl: agentBaseUrl(ready.agent, context.origin),
    headers: ready.headers,
    metadata: metadataOf(context),
  });
  if ("error" in built) return { error: { status: 0, message: built.error.message } };
  return built;
}

function metadataOf(context: AgentToolContext): AssistantContext {
  return { chatId: context.chatId, locale: context.locale, visitor: context.visitor };
}

/**
 * The `request` and `edit` parts of an approval descriptor for a call of `operation`
 * with `input`: the request exactly as it would be sent, with the agent's configured
 * headers (and the usual secret names) redacted. Invalid input gives `{ error }`.
 */
export function describeForApproval(
  operation: AgentOperation,
  ready: ReadyAgent,
  input: unknown,
  context: AgentToolContext,
): ApprovalRequestView | { error: { status: 0; message: string } } {
  const prepared = prepareRequest(operation, ready, input, context);
  if ("error" in prepared) return prepared;
  return {
    request: describeRequest(prepared.request, secretHeaderNames(ready.agent)),
    edit: { operation, baseUrl: agentBaseUrl(ready.agent, context.origin) },
  };
}

/** Validates, builds and sends one call; the outcome as the tool returns it. */
export async function runAgentCall(
  operation: AgentOperation,
  ready: ReadyAgent,
  input: unknown,
  context: AgentToolContext,
  signal?: AbortSignal,
): Promise<AgentToolOutput> {
  const prepared = prepareRequest(operation, ready, input, context);
  if ("error" in prepared) return prepared;
  if (operation.mcp) {
    return await runMcpCall(operation.mcp.tool, ready, prepared.request, input, context, signal);
  }
  const self = isSelfAgent(ready.agent);
  const selfApp = self ? context.selfApp : null;
  const request = self ? await sealed(prepared.request, context) : prepared.request;
  const result: AgentCallResult = await executeAgentRequest(request, {
    agent: {
      id: ready.agent.id,
      baseUrl: agentBaseUrl(ready.agent, context.origin),
      // In-process calls touch no network; over the network a "self" agent gets no exemption.
      local: selfApp ? true : self ? false : ready.agent.local,
    },
    secretHeaders: secretHeaderNames(ready.agent),
    fetch: selfApp ? inProcessFetch(selfApp, context.ip) : context.fetch,
    ...(context.timeoutMs ? { timeoutMs: context.timeoutMs } : {}),
    signal,
  });
  if ("error" in result) {
    return { error: { status: result.error.status, message: result.error.message } };
  }
  return { data: result.data };
}

/**
 * Calls an MCP agent's tool with the headers of the request the card showed (the agent's
 * and the context header); the SDK's client sends the `tools/call` message itself.
 */
function runMcpCall(
  tool: string,
  ready: ReadyAgent,
  request: AgentRequest,
  input: unknown,
  context: AgentToolContext,
  signal?: AbortSignal,
): Promise<AgentToolOutput> {
  const headers = { ...request.headers };
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === "content-type") delete headers[name];
  }
  return callMcpTool(
    {
      agent: { id: ready.agent.id, baseUrl: ready.agent.baseUrl, local: ready.agent.local },
      secretHeaders: secretHeaderNames(ready.agent),
      headers,
      ...(context.fetch ? { fetch: context.fetch } : {}),
      ...(context.timeoutMs ? { timeoutMs: context.timeoutMs } : {}),
    },
    tool,
    input as Record<string, unknown>,
    signal,
  );
}

/** `request` with its context header sealed for this app's own API (only "self" agents'). */
async function sealed(request: AgentRequest, context: AgentToolContext): Promise<AgentRequest> {
  const header = request.headers[CONTEXT_HEADER];
  if (header === undefined || !context.sealContext) return request;
  const seal = await context.sealContext(header);
  return { ...request, headers: { ...request.headers, [CONTEXT_SEAL_HEADER]: seal } };
}

/** A fetch that hands the request to the app itself, as if it came from `ip`. */
function inProcessFetch(app: SelfApp, ip = "unknown"): typeof fetch {
  return (input, init) =>
    app(new Request(input, init), {
      remoteAddr: { transport: "tcp", hostname: ip, port: 0 },
      completed: Promise.resolve(),
    });
}

/** The tools of one agent, by tool name. */
export function agentTools(
  ready: ReadyAgent,
  context: AgentToolContext,
): ToolSet {
  const tools: ToolSet = {};
  for (const operation of ready.operations) {
    tools[operation.toolName] = operationTool(operation, ready, context);
  }
  return tools;
}

function operationTool(
  operation: AgentOperation,
  ready: ReadyAgent,
  context: AgentToolContext,
): ToolSet[string] {
  const description = [operation.summary, operation.description].filter(Boolean).join("\n\n") ||
    `${operation.method} ${operation.pathTemplate} of ${localize(ready.agent.name, "en")}.`;
  const base = {
    description,
    // Validated when the model's call is parsed: an invalid call is a tool-input-error the
    // model can correct, never an approval card for a request that cannot be built.
    inputSchema: jsonSchema<Record<string, unknown>>(operation.inputSchema as JSONSchema7, {
      validate: (value) => {
        const problems = validateArguments(operation.inputSchema, value);
        return problems.length
          ? { success: false, error: new Error(`Invalid arguments: ${problems.join("; ")}`) }
          : { success: true, value: value as Record<string, unknown> };
      },
    }),
    needsApproval: needsApproval(operation, ready.agent),
  };
  if (ready.agent.runIn === "browser") return tool(base);
  return tool({
    ...base,
    execute: (input, { abortSignal }) =>
      runAgentCall(operation, ready, input, context, abortSignal),
  });
}
