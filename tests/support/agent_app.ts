/**
 * An app with one OpenAPI agent whose API is a loopback spy server: `GET /info`
 * answers text of the test's choosing (e.g. a prompt injection) and
 * `POST /messages` is the write operation every test counts. Plus the calls of
 * the approval flow over HTTP.
 */
import type { UIMessageChunk } from "ai";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { buildOperations } from "@/lib/agents/spec.ts";
import type { OpenApiAgentConfig } from "@/lib/agents/types.ts";
import type { ScriptedModel } from "@/lib/models/testing.ts";
import { scriptedRegistry } from "@/lib/models/testing.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { readyAgents } from "@/lib/tools/load_agents.ts";
import { CookieJar, postChat, readSse, testConfig, userMessage } from "./chat_client.ts";
import { startTestServer, type TestServer } from "./server.ts";

/** The spy agent's OpenAPI spec: a read and a write. */
export const SPY_SPEC = {
  openapi: "3.0.3",
  info: { title: "Spy API", version: "1.0.0" },
  paths: {
    "/info": {
      get: {
        operationId: "getInfo",
        summary: "Reads information about the site.",
        responses: { "200": { description: "The information." } },
      },
    },
    "/messages": {
      post: {
        operationId: "sendMessage",
        summary: "Sends a message to the site's staff.",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { text: { type: "string", minLength: 1, maxLength: 500 } },
                required: ["text"],
              },
            },
          },
        },
        responses: { "201": { description: "Sent." } },
      },
    },
  },
};

/** A request the spy API received. */
export interface SpyRequest {
  method: string;
  path: string;
  body: string;
}

/** Options of {@linkcode startSpyAgentApp}. */
export interface SpyAgentOptions {
  info?: () => string;
  search?: SiteSearch;
  runIn?: "server" | "browser";
  /** Another spec for the spy agent (default {@linkcode SPY_SPEC}). */
  spec?: unknown;
  /** More settings of the spy agent's config (e.g. its approval rule). */
  agent?: Partial<OpenApiAgentConfig>;
}

/** The app over a spy agent, with a scripted model and, optionally, a search of the test's passages. */
export async function startSpyAgentApp(
  model: ScriptedModel,
  options: SpyAgentOptions = {},
): Promise<{ server: TestServer; received: SpyRequest[]; close(): Promise<void> }> {
  const received: SpyRequest[] = [];
  // CORS as a browser-run agent's API must answer it: the visitor's page calls it directly.
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "content-type, x-assistant-context",
    "access-control-allow-methods": "GET, POST",
  };
  const spy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
    const path = new URL(req.url).pathname;
    received.push({ method: req.method, path, body: await req.text() });
    if (req.method === "GET") {
      return Response.json({ info: options.info?.() ?? "Aberto das 9h às 18h." }, {
        headers: cors,
      });
    }
    return Response.json({ ok: true }, { status: 201, headers: cors });
  });
  const agent: OpenApiAgentConfig = {
    id: "spy",
    name: "Spy API",
    description: "A test API that records what it receives.",
    spec: "inline",
    baseUrl: `http://127.0.0.1:${spy.addr.port}`,
    runIn: options.runIn ?? "server",
    local: true,
    ...options.agent,
  };
  const spec = options.spec ?? SPY_SPEC;
  const agents = readyAgents([{ agent, operations: await buildOperations(agent, spec) }], {});
  const server = await startTestServer({
    config: testConfig(),
    services: {
      agents,
      models: scriptedRegistry(model),
      ...(options.search ? { search: options.search } : {}),
    },
  });
  return {
    server,
    received,
    async close() {
      await server.close();
      await spy.shutdown();
    },
  };
}

/** The text of the most recent tool result in a model call's prompt, or null before any. */
export function lastToolResult(options: LanguageModelV4CallOptions): string | null {
  const last = options.prompt.at(-1);
  if (last?.role !== "tool") return null;
  return JSON.stringify(last.content);
}

/** An approval request of a stream. */
export type ApprovalChunk = Extract<UIMessageChunk, { type: "tool-approval-request" }>;

/** Asks `text` in a new turn of chat `id`; returns the chunks and the approval requests. */
export async function ask(url: string, jar: CookieJar, id: string, text: string) {
  const res = await postChat(url, { id, message: userMessage(text) }, { jar });
  if (res.status !== 200) {
    throw new Error(`POST /api/chat answered ${res.status}: ${await res.text()}`);
  }
  const { chunks } = await readSse(res);
  return {
    chunks,
    approvals: chunks.filter((c): c is ApprovalChunk => c.type === "tool-approval-request"),
  };
}

/** Sends approval responses; returns the response (a stream, or a JSON error). */
export function respond(
  url: string,
  jar: CookieJar,
  id: string,
  approvals: Array<{ approvalId: string; approved: boolean; reason?: string; input?: unknown }>,
): Promise<Response> {
  return postChat(url, { id, trigger: "approval-responses", approvals }, { jar });
}
