/**
 * A real remote MCP server on loopback for tests of MCP agents: the SDK's McpServer over
 * its web-standard Streamable HTTP transport (stateless, JSON answers), with a read-only
 * tool, a write, a tool that answers far too much and a tool that fails. Every JSON-RPC
 * message it receives is recorded, with the headers it came with.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";

/** A message the server received. */
export interface ReceivedMcp {
  method: string;
  body: Record<string, unknown>;
  headers: Headers;
}

/** A running server: its endpoint, what it received and the bookings the write made. */
export interface RemoteMcp {
  url: string;
  received: ReceivedMcp[];
  bookings: Array<{ name: string; day: string }>;
  /** The `tools/call` messages received, in order. */
  calls(): ReceivedMcp[];
  close(): Promise<void>;
}

/** Text of the opening-hours tool's answer. */
export const HOURS_TEXT = "Aberto de segunda a sexta, das 9h às 18h.";

function buildServer(bookings: RemoteMcp["bookings"]): McpServer {
  const server = new McpServer({ name: "remote-test", version: "1.0.0" });
  server.registerTool("opening_hours", {
    title: "Opening hours",
    description: "The museum's opening hours.",
    inputSchema: {},
    annotations: { readOnlyHint: true },
  }, () => ({ content: [{ type: "text", text: HOURS_TEXT }] }));
  server.registerTool("book_visit", {
    title: "Book a visit",
    description: "Books a guided visit for a visitor on a day.",
    inputSchema: {
      name: z.string().min(1).describe("The visitor's name"),
      day: z.string().min(1).describe("The day, e.g. 2026-12-10"),
    },
    annotations: { readOnlyHint: false },
  }, ({ name, day }: { name: string; day: string }) => {
    bookings.push({ name, day });
    return { content: [{ type: "text", text: `Visita marcada para ${name} em ${day}.` }] };
  });
  server.registerTool("huge_report", {
    description: "A report far larger than any tool result should be.",
    inputSchema: {},
    annotations: { readOnlyHint: true },
  }, () => ({ content: [{ type: "text", text: "x".repeat(200_000) }] }));
  server.registerTool("broken", {
    description: "Always fails.",
    inputSchema: {},
    annotations: { readOnlyHint: true },
  }, () => ({ content: [{ type: "text", text: "The archive is offline." }], isError: true }));
  return server;
}

/** Starts the server on 127.0.0.1 (endpoint `/mcp`). */
export function startRemoteMcp(): RemoteMcp {
  const received: ReceivedMcp[] = [];
  const bookings: RemoteMcp["bookings"] = [];
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (new URL(req.url).pathname !== "/mcp") return new Response("not found", { status: 404 });
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const body = await req.json();
    for (const message of Array.isArray(body) ? body : [body]) {
      received.push({ method: String(message.method), body: message, headers: req.headers });
    }
    const server = buildServer(bookings);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      return await transport.handleRequest(req, { parsedBody: body });
    } finally {
      await server.close().catch(() => {});
    }
  });
  return {
    url: `http://127.0.0.1:${http.addr.port}/mcp`,
    received,
    bookings,
    calls: () => received.filter((m) => m.method === "tools/call"),
    close: () => http.shutdown(),
  };
}
