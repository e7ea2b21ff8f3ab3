/**
 * Helpers of the MCP and llms.txt tests: the SDK's own client on a running server, raw
 * JSON-RPC posts, and the public and internal documents of the demo corpus.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";

const ROOT = new URL("../../", import.meta.url);

/** A manifest entry as the tests read it. */
export interface ManifestRow {
  id: string;
  path: string;
  title: string;
  url: string | null;
  lang: string;
}

/** corpus/manifest.json. */
export async function manifestRows(): Promise<ManifestRow[]> {
  return JSON.parse(await Deno.readTextFile(new URL("corpus/manifest.json", ROOT)));
}

/**
 * Every plain sentence (40+ characters, no markdown) of every internal document: what no
 * answer of these routes may contain.
 */
export async function internalSentences(): Promise<string[]> {
  const out: string[] = [];
  for (const doc of (await manifestRows()).filter((d) => d.url === null)) {
    const md = await Deno.readTextFile(new URL(`corpus/${doc.path}`, ROOT));
    for (const line of md.split("\n")) {
      if (line.startsWith("#")) continue;
      for (const s of line.replace(/^- /, "").split(/(?<=[.!?])\s+/)) {
        if (s.length >= 40 && !/[*`"\[\]_\\]/.test(s)) out.push(s.trim());
      }
    }
  }
  return out;
}

/** The SDK client connected to `<base>/mcp`, sending `headers` on every request. */
export async function mcpClient(base: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: "site-tests", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers } }),
  );
  return client;
}

/** The text of a tool result's content. */
export function resultText(result: unknown): string {
  return ((result as CallToolResult).content ?? [])
    .map((c: ContentBlock) => c.type === "text" ? c.text : "")
    .join("\n");
}

/** POSTs one raw JSON-RPC body (string or value) to `/mcp`. */
export function postMcp(
  base: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(new URL("/mcp", base), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A `tools/call` JSON-RPC request. */
export function callRequest(name: string, args: Record<string, unknown>, id: number = 1) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  };
}
