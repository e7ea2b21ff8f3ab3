/**
 * `/mcp` (issue 39): the site's MCP server, driven by the SDK's own client against the real
 * app on loopback (in-memory KV, the built search index, the offline model): initialize,
 * tools/list, each tool, bad arguments, oversized input, auth on and off, limits, CORS.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../support/server.ts";
import { testConfig } from "../support/chat_client.ts";
import {
  callRequest,
  internalSentences,
  manifestRows,
  mcpClient,
  postMcp,
  resultText,
} from "../support/mcp.ts";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { SearchReply } from "@/lib/mcp/search_tool.ts";
import type { FetchReply } from "@/lib/mcp/fetch_tool.ts";
import type { AskReply } from "@/lib/mcp/ask_tool.ts";

const SENTENCES = await internalSentences();
const TOKEN = "mcp-test-token-0123456789abcdef";

async function withServer(
  options: Parameters<typeof startTestServer>[0],
  fn: (server: TestServer) => Promise<void>,
) {
  const server = await startTestServer({ config: testConfig(), ...options });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

function assertNoInternalText(text: string, where: string) {
  const leaked = SENTENCES.filter((s) => text.includes(s));
  assert.deepEqual(leaked, [], `${where} leaks internal text`);
}

Deno.test("mcp: initialize, instructions and tools/list through the SDK client", async () => {
  await withServer({}, async (server) => {
    const client = await mcpClient(server.url);
    try {
      assert.equal(client.getServerVersion()?.name, "site-assistant");
      const instructions = client.getInstructions() ?? "";
      assert.match(instructions, /search_site/);
      assert.match(instructions, /Este servidor responde/, "the site's language too");
      const tools: Tool[] = (await client.listTools()).tools;
      assert.deepEqual(tools.map((t: Tool) => t.name).sort(), [
        "ask_site",
        "fetch_page",
        "search_site",
      ]);
      for (const tool of tools) {
        assert.ok((tool.description ?? "").length > 80, `${tool.name} is described`);
        assert.equal(tool.annotations?.readOnlyHint, true);
      }
      const search = tools.find((t: Tool) => t.name === "search_site")!;
      assert.deepEqual(search.inputSchema.required, ["query"]);
      assert.ok(search.inputSchema.properties?.language);
      assert.ok(search.inputSchema.properties?.top_k);
    } finally {
      await client.close();
    }
  });
});

Deno.test("mcp: search_site returns public passages with URL, anchor and exact text", async () => {
  await withServer({}, async (server) => {
    const client = await mcpClient(server.url);
    try {
      const result = await client.callTool({
        name: "search_site",
        arguments: { query: "por quanto tempo as conversas ficam guardadas", top_k: 3 },
      });
      assert.notEqual(result.isError, true, resultText(result));
      const reply = result.structuredContent as SearchReply;
      assert.ok(reply.passages.length > 0 && reply.passages.length <= 3);
      const first = reply.passages[0];
      assert.equal(first.rank, 1);
      assert.ok(first.url.startsWith(server.url + "/"), first.url);
      assert.ok(first.anchor.startsWith("#") && first.url.endsWith(first.anchor));
      assert.ok(first.text.length > 40);
      // The exact passage text is the index's own.
      const stored = server.services.search.passage(
        `${
          (await manifestRows()).find((d) => first.url.includes(d.url ?? "\0"))!.id
        }${first.anchor}`,
      );
      assert.equal(first.text, stored?.text);
      assert.ok(resultText(result).includes(first.url));

      const english = await client.callTool({
        name: "search_site",
        arguments: { query: "how long are conversations kept", language: "en", top_k: 5 },
      });
      const en = english.structuredContent as SearchReply;
      assert.ok(en.passages.length > 0);
      assert.ok(en.passages.every((p) => p.lang === "en" && p.url.includes("/en/about/")));
    } finally {
      await client.close();
    }
  });
});

Deno.test("mcp: no tool returns an internal document's text", async () => {
  await withServer({}, async (server) => {
    const client = await mcpClient(server.url);
    try {
      // Questions the internal editorial notes answer best.
      for (
        const query of [
          "lista de verificação antes de publicar",
          "fluxo editorial revisão em voz alta",
          "tamanho das seções entre 150 e 350 palavras",
        ]
      ) {
        const result = await client.callTool({
          name: "search_site",
          arguments: { query, top_k: 20 },
        });
        assertNoInternalText(JSON.stringify(result), `search_site "${query}"`);
        const answer = await client.callTool({ name: "ask_site", arguments: { question: query } });
        assertNoInternalText(JSON.stringify(answer), `ask_site "${query}"`);
      }
      for (const id of (await manifestRows()).filter((d) => d.url === null).map((d) => d.id)) {
        const byId = await client.callTool({ name: "fetch_page", arguments: { id } });
        assert.equal(byId.isError, true, `fetch_page id "${id}"`);
        assertNoInternalText(JSON.stringify(byId), `fetch_page id "${id}"`);
        for (const url of [`/sobre/${id}`, `/sobre/${id}.md`, `${server.url}/sobre/${id}`]) {
          const byUrl = await client.callTool({ name: "fetch_page", arguments: { url } });
          assert.equal(byUrl.isError, true, `fetch_page url "${url}"`);
        }
      }
    } finally {
      await client.close();
    }
  });
});

Deno.test("mcp: fetch_page reads a page's Markdown by URL or id, in parts", async () => {
  await withServer({}, async (server) => {
    const client = await mcpClient(server.url);
    try {
      const markdown = await Deno.readTextFile(
        new URL("../../corpus/pt/seus-dados.md", import.meta.url),
      );
      const byUrl = await client.callTool({
        name: "fetch_page",
        arguments: { url: `${server.url}/sobre/seus-dados#quanto-tempo` },
      });
      const reply = byUrl.structuredContent as FetchReply;
      assert.equal(reply.id, "seus-dados");
      assert.equal(reply.url, `${server.url}/sobre/seus-dados`);
      const whole = await readAllParts(client, { id: "seus-dados" });
      assert.equal(whole, markdown.replace(/^---\n[\s\S]*?\n---\n/, ""));
      const byPath = await client.callTool({
        name: "fetch_page",
        arguments: { url: "/en/about/your-data.md" },
      });
      assert.equal((byPath.structuredContent as FetchReply).lang, "en");
      const foreign = await client.callTool({
        name: "fetch_page",
        arguments: { url: "https://example.com/sobre/seus-dados" },
      });
      assert.equal(foreign.isError, true);
      assert.match(resultText(foreign), /not a page of this site/);
      const past = await client.callTool({
        name: "fetch_page",
        arguments: { id: "seus-dados", page: 99 },
      });
      assert.equal(past.isError, true);
      assert.match(resultText(past), /ask for page 1 to \d+/);
    } finally {
      await client.close();
    }
  });
});

/** Every part of a page, joined. */
async function readAllParts(
  client: Awaited<ReturnType<typeof mcpClient>>,
  args: Record<string, unknown>,
): Promise<string> {
  let text = "";
  for (let page = 1;; page++) {
    const result = await client.callTool({ name: "fetch_page", arguments: { ...args, page } });
    const reply = result.structuredContent as FetchReply;
    text += reply.markdown;
    if (reply.page >= reply.pages) return text;
  }
}

Deno.test("mcp: ask_site answers through the chat turn, citing the site", async () => {
  await withServer({}, async (server) => {
    const client = await mcpClient(server.url);
    try {
      const result = await client.callTool({
        name: "ask_site",
        arguments: { question: "Por quanto tempo as conversas ficam guardadas?" },
      });
      assert.notEqual(result.isError, true, resultText(result));
      const reply = result.structuredContent as AskReply;
      assert.equal(reply.model, "local");
      assert.match(reply.answer, /\[\d+\]/, "the answer cites");
      assert.ok(reply.citations.valid >= 1);
      assert.equal(reply.citations.invalid, 0);
      assert.ok(reply.sources.length >= 1);
      for (const s of reply.sources) assert.ok(s.url.startsWith(server.url + "/"), s.url);
      assert.match(resultText(result), /Sources:\n\[1\] /);
      // The one-question chat the turn saved is gone once read.
      const chats = await Array.fromAsync(server.services.kv.list({ prefix: ["chat"] }));
      assert.equal(chats.length, 0, "no chat left in KV");
    } finally {
      await client.close();
    }
  });
});

Deno.test("mcp: bad arguments are tool errors or JSON-RPC errors, never 5xx", async () => {
  await withServer({}, async (server) => {
    const client = await mcpClient(server.url);
    try {
      const bad: Array<[string, Record<string, unknown>]> = [
        ["search_site", {}],
        ["search_site", { query: "" }],
        ["search_site", { query: "x", top_k: 0 }],
        ["search_site", { query: "x", top_k: 21 }],
        ["search_site", { query: "x", language: "fr" }],
        ["search_site", { query: "x".repeat(501) }],
        ["fetch_page", {}],
        ["fetch_page", { url: "/sobre/seus-dados", id: "seus-dados" }],
        ["fetch_page", { id: "nope" }],
        ["ask_site", { question: 42 }],
        ["no_such_tool", {}],
      ];
      for (const [name, args] of bad) {
        const result = await client.callTool({ name, arguments: args });
        assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
        assert.ok(resultText(result).length > 10);
      }
    } finally {
      await client.close();
    }
    const raw: Array<[string, number, number]> = [
      ["{not json", 400, -32700],
      ['{"hello": "world"}', 400, -32700],
      ["[]", 400, -32600],
      ['"just a string"', 400, -32700],
    ];
    for (const [body, status, code] of raw) {
      const res = await postMcp(server.url, body);
      assert.equal(res.status, status, body);
      const json = await res.json();
      assert.equal(json.jsonrpc, "2.0");
      assert.equal(json.error.code, code, body);
    }
    const get = await fetch(`${server.url}/mcp`, { headers: { accept: "text/event-stream" } });
    assert.equal(get.status, 405);
    assert.equal((await get.json()).error.code, -32000);
    const put = await fetch(`${server.url}/mcp`, { method: "PUT", body: "{}" });
    assert.ok(put.status < 500, `PUT ${put.status}`);
    await put.body?.cancel();
  });
});

Deno.test("mcp: an oversized body is a 413 JSON-RPC error, declared or streamed", async () => {
  await withServer({ config: testConfig({ maxBodyBytes: 4096 }) }, async (server) => {
    const big = callRequest("search_site", { query: "x".repeat(10_000) });
    const res = await postMcp(server.url, big);
    assert.equal(res.status, 413);
    const json = await res.json();
    assert.equal(json.error.code, -32600);
    assert.match(json.error.message, /over 4096 bytes/);
    // Streamed with no Content-Length: cut off past the limit too.
    const chunks = new Blob([JSON.stringify(big)]).stream();
    const streamed = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: chunks,
    });
    assert.equal(streamed.status, 413);
    await streamed.body?.cancel();
  });
});

Deno.test("mcp: MCP_TOKEN on asks for the bearer token; off, none is needed", async () => {
  await withServer({ env: { MCP_TOKEN: TOKEN } }, async (server) => {
    const none = await postMcp(server.url, callRequest("search_site", { query: "dados" }));
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.equal((await none.json()).error.code, -32000);
    const wrong = await postMcp(server.url, callRequest("search_site", { query: "dados" }), {
      authorization: `Bearer ${TOKEN}x`,
    });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    await assert.rejects(mcpClient(server.url));
    const client = await mcpClient(server.url, { authorization: `Bearer ${TOKEN}` });
    try {
      const result = await client.callTool({ name: "search_site", arguments: { query: "dados" } });
      assert.notEqual(result.isError, true);
    } finally {
      await client.close();
    }
  });
  await withServer({}, async (server) => {
    const client = await mcpClient(server.url);
    await client.close();
  });
});

Deno.test("mcp: MCP_ENABLED=false turns /mcp off", async () => {
  await withServer({ env: { MCP_ENABLED: "false" } }, async (server) => {
    const res = await postMcp(server.url, callRequest("search_site", { query: "dados" }));
    assert.equal(res.status, 404);
    assert.equal((await res.json()).jsonrpc, "2.0");
    const llms = await (await fetch(`${server.url}/llms.txt`)).text();
    assert.doesNotMatch(llms, /\/mcp/);
  });
});

Deno.test("mcp: a 1,000-call burst from one IP is limited with Retry-After and 0 x 5xx", async () => {
  const limits = {
    visitor: { requestsPerMinute: 1_000_000, tokensPerDay: 1e12 },
    ip: { requestsPerMinute: 60, tokensPerDay: 1e12 },
  };
  await withServer({ config: testConfig({ limits }) }, async (server) => {
    const statuses = new Map<number, number>();
    let retryAfter = "";
    const body = callRequest("search_site", { query: "como funciona a busca" });
    const one = async () => {
      const res = await postMcp(server.url, body);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429) {
        retryAfter = res.headers.get("retry-after") ?? "";
        assert.equal((await res.json()).error.code, -32000);
      } else await res.body?.cancel();
    };
    // 1,000 calls, 50 in flight at a time.
    const queue = Array.from({ length: 1000 }, (_, i) => i);
    await Promise.all(Array.from({ length: 50 }, async () => {
      while (queue.pop() !== undefined) await one();
    }));
    const serverErrors = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    console.log("burst statuses:", Object.fromEntries(statuses));
    assert.equal(serverErrors, 0);
    assert.equal(statuses.get(200), 60, "exactly the per-IP allowance passes");
    assert.equal(statuses.get(429), 940);
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, retryAfter);
  });
});

Deno.test("mcp: the global ceiling holds over many addresses", async () => {
  await withServer({ env: { MCP_GLOBAL_REQUESTS_PER_MINUTE: "5" } }, async (server) => {
    const app = server.services.selfApp!;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const req = new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(callRequest("search_site", { query: "dados" })),
      });
      // Each request from another address: only the global ceiling can refuse.
      const info = {
        remoteAddr: { transport: "tcp", hostname: `10.0.0.${i + 1}`, port: 1 },
        completed: Promise.resolve(),
      } as unknown as Deno.ServeHandlerInfo;
      const res = await app(req, info);
      statuses.push(res.status);
      await res.body?.cancel();
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
  });
});

Deno.test("mcp: CORS follows the allow-list", async () => {
  const allowed = "https://docs.example.com";
  await withServer({ config: testConfig({ allowedOrigins: [allowed] }) }, async (server) => {
    const pre = await fetch(`${server.url}/mcp`, {
      method: "OPTIONS",
      headers: {
        origin: allowed,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-protocol-version",
      },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get("access-control-allow-origin"), allowed);
    assert.match(pre.headers.get("access-control-allow-headers") ?? "", /mcp-protocol-version/);
    const ok = await postMcp(server.url, callRequest("search_site", { query: "dados" }), {
      origin: allowed,
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("access-control-allow-origin"), allowed);
    await ok.body?.cancel();
    const foreign = await postMcp(server.url, callRequest("search_site", { query: "dados" }), {
      origin: "https://evil.example",
    });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.headers.get("access-control-allow-credentials"), null);
    await foreign.body?.cancel();
  });
});
