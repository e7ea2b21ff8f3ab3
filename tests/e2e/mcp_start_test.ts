/**
 * `/mcp` end to end against `deno task start` (issue 39): the real production entry in its
 * own process, reached over HTTP on loopback by the SDK's client with the bearer token:
 * initialize, tools/list, each tool, and /llms.txt. No browser.
 */
import assert from "node:assert/strict";
import { mcpClient, resultText } from "../support/mcp.ts";
import type { SearchReply } from "@/lib/mcp/search_tool.ts";
import type { AskReply } from "@/lib/mcp/ask_tool.ts";

const ROOT = new URL("../../", import.meta.url);
const TOKEN = "e2e-mcp-token-0123456789abcdef";

/** The ids of `pid`'s child processes (Linux). */
async function childrenOf(pid: number): Promise<number[]> {
  const text = await Deno.readTextFile(`/proc/${pid}/task/${pid}/children`).catch(() => "");
  return text.split(/\s+/).filter(Boolean).map(Number);
}

/** `deno task start` as a child; stopping it ends the task and the `deno run` it started. */
function startTask(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "start"],
    cwd: ROOT,
    env: { NO_COLOR: "1", PORT: "0", DENO_KV_PATH: ":memory:", REQUEST_LOG: "off", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const port = (async () => {
    while (true) {
      const { done, value } = await stdout.read();
      if (done) throw new Error(`deno task start ended before listening:\n${out}`);
      out += value;
      const match = /Listening on http:\/\/[^\s]*:(\d+)\//.exec(out);
      if (match) return Number(match[1]);
    }
  })();
  const stderr = child.stderr.pipeTo(new WritableStream());
  return {
    port,
    async stop() {
      // The server is the task's child: end it by its id, then the task.
      for (const pid of await childrenOf(child.pid)) {
        try {
          Deno.kill(pid, "SIGTERM");
        } catch { /* already gone */ }
      }
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await stdout.cancel().catch(() => {});
      await stderr.catch(() => {});
    },
  };
}

Deno.test("mcp e2e: the SDK client drives /mcp of `deno task start` over HTTP", async () => {
  const task = startTask({ MCP_TOKEN: TOKEN });
  try {
    const base = `http://127.0.0.1:${await task.port}`;
    const refused = await fetch(`${base}/mcp`, { method: "POST", body: "{}" });
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
    const client = await mcpClient(base, { authorization: `Bearer ${TOKEN}` });
    try {
      const tools = (await client.listTools()).tools.map((t: { name: string }) => t.name);
      assert.deepEqual(tools.sort(), ["ask_site", "fetch_page", "search_site"]);
      const search = await client.callTool({
        name: "search_site",
        arguments: { query: "Como o assistente encontra as respostas?", top_k: 3 },
      });
      const passages = (search.structuredContent as SearchReply).passages;
      assert.ok(passages.length > 0, resultText(search));
      const page = await client.callTool({
        name: "fetch_page",
        arguments: { url: passages[0].url },
      });
      assert.notEqual(page.isError, true, resultText(page));
      assert.ok(resultText(page).includes("#"), "Markdown with headings");
      const ask = await client.callTool({
        name: "ask_site",
        arguments: { question: "How long do you keep my conversations?" },
      });
      const reply = ask.structuredContent as AskReply;
      assert.ok(reply.citations.valid >= 1, resultText(ask));
    } finally {
      await client.close();
    }
    const llms = await (await fetch(`${base}/llms.txt`)).text();
    assert.ok(llms.includes(`${base}/mcp`));
  } finally {
    await task.stop();
  }
});
