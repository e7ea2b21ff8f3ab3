/**
 * The MCP server of one request: its three tools over the site's search, its public pages and
 * its chat turn. Stateless: a server and a transport are built per HTTP request and dropped
 * after it, so nothing of a caller stays in the isolate (Deno Deploy may answer the next
 * request from another one).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { PublicDocs } from "@/lib/corpus/public_docs.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { serverInstructions, TOOL_TEXT } from "./texts.ts";
import { MAX_TOP_K, type SearchArgs, searchReplyText, searchSite } from "./search_tool.ts";
import { type FetchArgs, fetchPage, FetchPageError, fetchReplyText } from "./fetch_tool.ts";
import { AskError, type AskReply, askReplyText } from "./ask_tool.ts";

/** What the tools run on. */
export interface McpDeps {
  siteName: string;
  version: string;
  search: SiteSearch;
  docs: PublicDocs;
  /** The site's origin (absolute URLs of passages and pages) and its other public origins. */
  site: { origin: string; siteOrigins: readonly string[] };
  /** The chat's answer to `question` (lib/mcp/ask_tool.ts `askSite`, bound to the caller). */
  ask(question: string, language: "pt" | "en" | undefined): Promise<AskReply>;
}

// Built once: the SDK converts them to JSON Schema for tools/list and validates arguments.
const LANGUAGE = z.enum(["pt", "en"]).optional();
const SEARCH_INPUT = {
  query: z.string().trim().min(1).max(500).describe("What to look for, in Portuguese or English"),
  language: LANGUAGE.describe("Only passages in this language: pt or en (default: both)"),
  top_k: z.number().int().min(1).max(MAX_TOP_K).optional()
    .describe(`How many passages, 1 to ${MAX_TOP_K} (default 5)`),
};
const FETCH_INPUT = {
  url: z.string().min(1).max(2000).optional()
    .describe("The page's URL or path, e.g. /sobre/como-funciona (anchor and .md allowed)"),
  id: z.string().min(1).max(200).optional().describe("The page's id, e.g. como-funciona"),
  page: z.number().int().min(1).max(1000).optional()
    .describe("Which part of a long page (default 1)"),
};
const ASK_INPUT = {
  question: z.string().trim().min(1).max(2000).describe("The question, in Portuguese or English"),
  language: LANGUAGE.describe("The answer's language hint: pt or en"),
};

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Runs a tool's work; the errors a caller can act on become tool errors, the rest is logged. */
async function guarded<T>(
  name: string,
  work: () => Promise<T>,
  reply: (value: T) => CallToolResult,
): Promise<CallToolResult> {
  try {
    return reply(await work());
  } catch (error) {
    if (error instanceof FetchPageError) return toolError(error.message);
    if (error instanceof AskError) {
      const wait = error.retryAfterSeconds ? ` Retry after ${error.retryAfterSeconds} s.` : "";
      return toolError(error.message + wait);
    }
    console.error(`MCP tool ${name} failed:`, error);
    return toolError(`${name} is unavailable right now. Try again shortly.`);
  }
}

/** Builds the server of one request. */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: "site-assistant", title: deps.siteName, version: deps.version },
    { instructions: serverInstructions(deps.siteName) },
  );
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  server.registerTool(
    "search_site",
    {
      ...TOOL_TEXT.search_site,
      inputSchema: SEARCH_INPUT,
      annotations: readOnly,
    },
    (args: SearchArgs) =>
      guarded("search_site", () => searchSite(deps.search, args, deps.site), (reply) => ({
        content: [{ type: "text", text: searchReplyText(reply) }],
        structuredContent: reply,
      })),
  );
  server.registerTool(
    "fetch_page",
    {
      ...TOOL_TEXT.fetch_page,
      inputSchema: FETCH_INPUT,
      annotations: readOnly,
    },
    (args: FetchArgs) =>
      guarded("fetch_page", () => fetchPage(deps.docs, args, deps.site), (reply) => ({
        content: [{ type: "text", text: fetchReplyText(reply) }],
        structuredContent: reply,
      })),
  );
  server.registerTool(
    "ask_site",
    {
      ...TOOL_TEXT.ask_site,
      inputSchema: ASK_INPUT,
      annotations: readOnly,
    },
    ({ question, language }: { question: string; language?: "pt" | "en" }) =>
      guarded("ask_site", () => deps.ask(question, language), (reply) => ({
        content: [{ type: "text", text: askReplyText(reply) }],
        structuredContent: reply,
      })),
  );
  return server;
}
