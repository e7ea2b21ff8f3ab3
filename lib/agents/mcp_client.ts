/**
 * Talks to a remote MCP server (Streamable HTTP) for an MCP agent, with the official
 * SDK's client: lists its tools, and calls one. Every HTTP request of the client goes
 * through the agents' network policy ({@linkcode policyFetch}: the agent's origin only,
 * public addresses unless `local`, redirects by hand without credentials off the base
 * URL, a byte cap on every answer), and one deadline covers a whole exchange (connect,
 * the request, closing the session). A failure never throws: it comes back as
 * `{ error: { status, message } }` in words the model and the visitor can read.
 *
 * Server-only.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { AgentPolicyError, policyFetch, type PolicyFetchOptions } from "./fetch_policy.ts";
import type { JsonSchema } from "./types.ts";

/** Where and how to reach one MCP server. */
export interface McpTarget extends Omit<PolicyFetchOptions, "signal"> {
  /** Headers sent with every request (the agent's, resolved; the context header on calls). */
  headers?: Record<string, string>;
  /** Deadline of one exchange, connect and close included (default 10 s). */
  timeoutMs?: number;
}

/** A tool as the server lists it, reduced to what the chat uses. */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  readOnly: boolean;
}

/** Why an exchange failed: `status` is the HTTP status, or 0 when there was none. */
export interface McpFailure {
  error: { status: number; message: string };
}

/** Longest text of a tool's result handed to the model; the rest is cut with a note. */
export const MAX_TOOL_TEXT = 32 * 1024;

const CLIENT_INFO = { name: "site-assistant", version: "1" };

/** The server's tools, or why they could not be listed. */
export async function listMcpTools(
  target: McpTarget,
): Promise<{ tools: McpToolInfo[] } | McpFailure> {
  return await exchange(target, undefined, async (client, signal) => {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    // A few pages at most: a server that pages forever must not hold the turn.
    for (let page = 0; page < 10; page++) {
      const listed = await client.listTools(cursor ? { cursor } : {}, { signal });
      tools.push(...listed.tools.map(toolInfo));
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return { tools };
  });
}

/** Calls tool `name` with `args`; the result as the chat's agent tools return it. */
export async function callMcpTool(
  target: McpTarget,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ data: unknown } | McpFailure> {
  return await exchange(target, signal, async (client, signal) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { signal });
    return toolOutput(result as CallToolResult);
  });
}

function toolInfo(tool: Tool): McpToolInfo {
  return {
    name: tool.name,
    ...(tool.title ?? tool.annotations?.title
      ? { title: tool.title ?? tool.annotations?.title }
      : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as JsonSchema,
    readOnly: tool.annotations?.readOnlyHint === true,
  };
}

/**
 * The data of a result for the model: its structured content when it has some, else its
 * text blocks joined, cut at {@linkcode MAX_TOOL_TEXT}; other blocks (images, audio,
 * resources) are named, not passed on. `isError` results become errors.
 */
export function toolOutput(result: CallToolResult): { data: unknown } | McpFailure {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === "text") parts.push(block.text);
    else parts.push(`[${block.type} content left out]`);
  }
  let text = parts.join("\n\n");
  if (text.length > MAX_TOOL_TEXT) {
    text = `${text.slice(0, MAX_TOOL_TEXT)}\n[truncated at ${MAX_TOOL_TEXT} characters]`;
  }
  if (result.isError) {
    return { error: { status: 0, message: text || "The tool reported an error." } };
  }
  const structured = result.structuredContent;
  if (structured && JSON.stringify(structured).length <= MAX_TOOL_TEXT) return { data: structured };
  return { data: text };
}

/** Connects, runs `work`, closes; every failure becomes an {@linkcode McpFailure}. */
async function exchange<T>(
  target: McpTarget,
  caller: AbortSignal | undefined,
  work: (client: Client, signal: AbortSignal) => Promise<T | McpFailure>,
): Promise<T | McpFailure> {
  const timeoutMs = target.timeoutMs ?? 10_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = caller ? AbortSignal.any([timeout, caller]) : timeout;
  let client: Client | null = null;
  try {
    // Loaded on the first MCP exchange: a site without MCP agents never loads the client.
    const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    ]);
    client = new Client(CLIENT_INFO);
    const transport = new StreamableHTTPClientTransport(new URL(target.agent.baseUrl), {
      fetch: policyFetch({ ...target, signal }),
      requestInit: { headers: target.headers ?? {} },
      // Our fetch follows (or refuses) redirects itself, under the policy.
      redirectPolicy: "follow",
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1_000,
        maxReconnectionDelay: 1_000,
        reconnectionDelayGrowFactor: 1,
      },
    });
    const deadline = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    // The SDK's own timers are a backstop; the race makes the deadline exact.
    const connected = client;
    return await Promise.race([
      connected.connect(transport, { signal, timeout: timeoutMs }).then(() =>
        work(connected, signal)
      ),
      deadline,
    ]);
  } catch (error) {
    return failure(error, { timedOut: timeout.aborted, cancelled: !!caller?.aborted, timeoutMs });
  } finally {
    client?.close().catch(() => {});
  }
}

function failure(
  error: unknown,
  how: { timedOut: boolean; cancelled: boolean; timeoutMs: number },
): McpFailure {
  if (error instanceof AgentPolicyError) {
    return { error: { status: error.detail.status, message: error.detail.message } };
  }
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof AgentPolicyError) {
    return { error: { status: cause.detail.status, message: cause.detail.message } };
  }
  if (how.timedOut) {
    return {
      error: { status: 0, message: `The MCP server did not answer within ${how.timeoutMs} ms.` },
    };
  }
  if (how.cancelled) return { error: { status: 0, message: "Cancelled." } };
  const code = (error as { code?: unknown })?.code;
  const status = typeof code === "number" && code >= 400 && code < 600 ? code : 0;
  const message = String((error as Error)?.message ?? error).slice(0, 300);
  return { error: { status, message: `The MCP server could not be used: ${message}` } };
}
