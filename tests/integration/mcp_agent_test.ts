/**
 * MCP agents through the real app in process, against a real MCP server on loopback (the
 * SDK's McpServer over Streamable HTTP): the model is offered the server's tools; a tool the
 * server marks read-only runs at once only when the owner allows it; any other call waits
 * for the visitor, whose card shows the server, the tool and the exact `tools/call` message;
 * approving sends exactly that message once, with the agent's secret header, and the answer
 * goes on. Denied calls, private addresses, the per-step cap, a server that went down and
 * an oversized result: no 5xx, no hang, a tool error or a note the model reads.
 */
import assert from "node:assert/strict";
import type { UIMessageChunk } from "ai";
import type { ApprovalDescriptor } from "@/lib/chat/approvals.ts";
import type { McpAgentConfig } from "@/lib/agents/types.ts";
import { REDACTED } from "@/lib/agents/request.ts";
import {
  createScriptedModel,
  scriptedRegistry,
  type ScriptedStepSource,
} from "@/lib/models/testing.ts";
import type { AppConfig } from "@/lib/config.ts";
import { readyAgents } from "@/lib/tools/load_agents.ts";
import { MAX_TOOL_TEXT } from "@/lib/agents/mcp_client.ts";
import { CookieJar, newChatId, readSse, testConfig } from "../support/chat_client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { ask, lastToolResult, respond } from "../support/agent_app.ts";
import { HOURS_TEXT, type RemoteMcp, startRemoteMcp } from "../support/remote_mcp.ts";

const KEY = "museum-k3y-secret";

function museum(url: string, extra: Partial<McpAgentConfig> = {}): McpAgentConfig {
  return {
    kind: "mcp",
    id: "museum",
    name: { "pt-BR": "Museu", en: "Museum" },
    description: "The museum's MCP server.",
    baseUrl: url,
    local: true,
    autoRunReadOnly: true,
    headers: { "X-Museum-Key": "${MUSEUM_KEY}" },
    ...extra,
  };
}

async function start(
  remote: RemoteMcp,
  steps: ScriptedStepSource[],
  options: { agent?: Partial<McpAgentConfig>; config?: Partial<AppConfig>; url?: string } = {},
) {
  const model = createScriptedModel(steps);
  const agent = museum(options.url ?? remote.url, options.agent);
  const agents = readyAgents([{ agent, operations: [] }], { MUSEUM_KEY: KEY });
  const server: TestServer = await startTestServer({
    config: testConfig(options.config),
    services: { agents, models: scriptedRegistry(model) },
  });
  return { model, server };
}

type Approval = Extract<UIMessageChunk, { type: "tool-approval-request" }>;

function outputsOf(chunks: UIMessageChunk[]) {
  return chunks.filter((c): c is Extract<UIMessageChunk, { type: "tool-output-available" }> =>
    c.type === "tool-output-available"
  );
}

const toolNames = (call: { tools?: Array<{ name: string }> } | undefined) =>
  (call?.tools ?? []).map((t) => t.name).sort();

Deno.test("mcp agents: the model gets the server's tools; a read-only one runs, a write waits for the visitor, whose approval sends the exact message once", async () => {
  const remote = startRemoteMcp();
  const { model, server } = await start(remote, [
    { type: "tool-call", toolName: "museum_opening_hours", input: {} },
    { type: "tool-call", toolName: "museum_book_visit", input: { name: "Ana", day: "2026-12-10" } },
    { type: "text", text: "Pronto, visita marcada." },
  ]);
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const { chunks, approvals } = await ask(server.url, jar, id, "Quero marcar uma visita");
    assert.deepEqual(
      toolNames(model.calls[0] as never).filter((n) => n.startsWith("museum_")),
      ["museum_book_visit", "museum_broken", "museum_huge_report", "museum_opening_hours"],
    );
    // The read-only tool ran at once; its text reached the model.
    assert.ok(outputsOf(chunks).some((c) => JSON.stringify(c.output).includes(HOURS_TEXT)));
    assert.match(lastToolResult(model.calls[1]) ?? "", /segunda a sexta/);

    // The write waits: the card's request is the exact tools/call message to the server.
    assert.equal(approvals.length, 1);
    const approval: Approval = approvals[0];
    const descriptor = approval.approvalDescriptor as unknown as ApprovalDescriptor & {
      agentName: string;
    };
    assert.equal(descriptor.agentId, "museum");
    assert.equal(descriptor.agentName, "Museu");
    assert.equal(descriptor.request.method, "POST");
    assert.equal(descriptor.request.url, remote.url);
    assert.equal(descriptor.request.headers["X-Museum-Key"], REDACTED);
    assert.ok(!JSON.stringify(chunks).includes(KEY), "the secret never reaches the page");
    assert.deepEqual(JSON.parse(descriptor.request.body!), {
      method: "tools/call",
      params: { name: "book_visit", arguments: { name: "Ana", day: "2026-12-10" } },
      jsonrpc: "2.0",
      id: 1,
    });
    assert.equal(remote.bookings.length, 0, "nothing booked before the visitor approves");

    const res = await respond(server.url, jar, id, [{
      approvalId: approval.approvalId,
      approved: true,
    }]);
    assert.equal(res.status, 200);
    const next = await readSse(res);
    assert.equal(next.chunks.at(-1)?.type, "finish");
    assert.deepEqual(remote.bookings, [{ name: "Ana", day: "2026-12-10" }], "booked once");
    const call = remote.calls().at(-1)!;
    assert.deepEqual(call.body, JSON.parse(descriptor.request.body!), "sent as shown");
    assert.equal(call.headers.get("x-museum-key"), KEY, "with the agent's header");
    assert.match(call.headers.get("x-assistant-context") ?? "", /"chatId"/);
    assert.match(lastToolResult(model.calls[2]) ?? "", /Visita marcada para Ana/);

    // A replay sends nothing more.
    const replay = await respond(server.url, jar, id, [{
      approvalId: approval.approvalId,
      approved: true,
    }]);
    assert.equal(replay.status, 400);
    await replay.body?.cancel();
    assert.equal(remote.bookings.length, 1);
  } finally {
    await server.close();
    await remote.close();
  }
});

Deno.test("mcp agents: a denial sends nothing and tells the model; without autoRunReadOnly a read-only tool waits too", async () => {
  const remote = startRemoteMcp();
  const { model, server } = await start(remote, [
    { type: "tool-call", toolName: "museum_opening_hours", input: {} },
    { type: "text", text: "Tudo bem." },
  ], { agent: { autoRunReadOnly: false } });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const { approvals } = await ask(server.url, jar, id, "Que horas abre?");
    assert.equal(approvals.length, 1, "the owner did not allow read-only tools to run at once");
    const res = await respond(server.url, jar, id, [{
      approvalId: approvals[0].approvalId,
      approved: false,
      reason: "Não precisa",
    }]);
    assert.equal(res.status, 200);
    await readSse(res);
    assert.equal(remote.calls().length, 0, "nothing was called");
    assert.match(JSON.stringify(model.calls[1].prompt), /Não precisa/);
  } finally {
    await server.close();
    await remote.close();
  }
});

Deno.test("mcp agents: a server on a private address is refused unless the agent is local; the model is told, nothing is sent", async () => {
  const remote = startRemoteMcp();
  const { model, server } = await start(remote, [{ type: "text", text: "Sem o museu hoje." }], {
    agent: { local: false },
  });
  try {
    const { chunks } = await ask(server.url, new CookieJar(), newChatId(), "Que horas abre?");
    assert.equal(chunks.at(-1)?.type, "finish");
    assert.equal(remote.received.length, 0, "not even initialize reached it");
    assert.ok(!toolNames(model.calls[0] as never).some((n) => n.startsWith("museum_")));
    assert.match(
      JSON.stringify(model.calls[0].prompt[0]),
      /tools of \\"Museum\\" \(an MCP server\) cannot be used right now: Refused \\"127\.0\.0\.1\\"/,
    );
  } finally {
    await server.close();
    await remote.close();
  }
});

Deno.test("mcp agents: a step's calls are capped; only toolCalls.perStep reach the server", async () => {
  const remote = startRemoteMcp();
  const many = {
    type: "tool-calls" as const,
    calls: Array.from({ length: 20 }, () => ({ toolName: "museum_opening_hours", input: {} })),
  };
  const { model, server } = await start(remote, [many, { type: "text", text: "Pronto." }], {
    config: { toolCalls: { perStep: 3, perTurn: 6, concurrency: 2 } },
  });
  try {
    const { chunks } = await ask(server.url, new CookieJar(), newChatId(), "Que horas abre?");
    assert.equal(chunks.at(-1)?.type, "finish");
    assert.equal(remote.calls().length, 3);
    assert.match(JSON.stringify(model.calls[1].prompt), /at most 3 tool calls/);
  } finally {
    await server.close();
    await remote.close();
  }
});

Deno.test("mcp agents: an oversized result is cut for the model; a server that went down is a tool error, never a 5xx", async () => {
  const remote = startRemoteMcp();
  let down = false;
  const { model, server } = await start(remote, [
    { type: "tool-call", toolName: "museum_huge_report", input: {} },
    { type: "text", text: "Relatório lido." },
    (options) =>
      down
        ? { type: "tool-call", toolName: "museum_opening_hours", input: {} }
        : { type: "text", text: String(options.prompt.length) },
    { type: "text", text: "O museu não respondeu." },
  ]);
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const first = await ask(server.url, jar, id, "Mostre o relatório");
    assert.equal(first.chunks.at(-1)?.type, "finish");
    const result = lastToolResult(model.calls[1]) ?? "";
    assert.ok(result.length < MAX_TOOL_TEXT + 1_000, `cut to the bound (${result.length} chars)`);
    assert.match(result, /truncated at 32768 characters/);

    await remote.close();
    down = true;
    const second = await ask(server.url, jar, id, "Que horas abre?");
    assert.equal(second.chunks.at(-1)?.type, "finish", "the turn ends normally");
    assert.match(
      lastToolResult(model.calls[3]) ?? "",
      /The MCP server could not be used/,
      "the model reads why",
    );
    // The visitor reads it too, on the tool's line of the answer.
    const page = await (await jar.fetch(`${server.url}/c/${id}`)).text();
    assert.match(page, /class="tool-error"><code>The MCP server could not be used/);
  } finally {
    await server.close();
  }
});
