import assert from "node:assert/strict";
import type { McpAgentConfig } from "@/lib/agents/types.ts";
import { startRemoteMcp } from "@/tests/support/remote_mcp.ts";
import { mcpOperations, withRemoteTools } from "./mcp_tools.ts";
import type { ReadyAgent } from "./agent_tools.ts";

const agent = (baseUrl: string, extra: Partial<McpAgentConfig> = {}): McpAgentConfig => ({
  kind: "mcp",
  id: "museum",
  name: "Museum",
  description: "A museum.",
  baseUrl,
  local: true,
  ...extra,
});

const object = { type: "object", properties: {} };

Deno.test("mcp tools: named <id>_<tool>, allow-listed, unusable names and schemas left out", () => {
  const tools = [
    { name: "hours", inputSchema: object, readOnly: true, title: "Hours" },
    { name: "book", inputSchema: object, readOnly: false },
    { name: "has space", inputSchema: object, readOnly: true },
    { name: "x".repeat(60), inputSchema: object, readOnly: true },
    { name: "notObject", inputSchema: { type: "string" }, readOnly: true },
  ];
  const ops = mcpOperations(agent("https://m.example/mcp", { autoRunReadOnly: true }), tools);
  assert.deepEqual(ops.map((o) => [o.toolName, o.needsApproval, o.summary]), [
    ["museum_hours", false, "Hours"],
    ["museum_book", true, undefined],
  ]);
  assert.deepEqual(ops[0].mcp, { tool: "hours", readOnly: true });
  const only = mcpOperations(agent("https://m.example/mcp", { tools: ["book"] }), tools);
  assert.deepEqual(only.map((o) => o.toolName), ["museum_book"]);
});

Deno.test("mcp tools: a list is kept for its ttl, kept when the server goes down, retried after retryMs; never listed is a note", async () => {
  const remote = startRemoteMcp();
  let clock = 0;
  const options = { now: () => clock, ttlMs: 1_000, retryMs: 100 };
  const ready: ReadyAgent = { agent: agent(remote.url), operations: [], headers: {} };
  const lists = () => remote.received.filter((m) => m.method === "tools/list").length;
  try {
    const first = await withRemoteTools([ready], options);
    assert.equal(first.agents[0].operations.length, 4);
    assert.deepEqual(first.notes, []);
    await withRemoteTools([ready], options);
    assert.equal(lists(), 1, "cached within the ttl");
    clock = 1_000;
    await withRemoteTools([ready], options);
    assert.equal(lists(), 2, "fetched again after it");
  } finally {
    await remote.close();
  }
  let attempts = 0;
  const counting = {
    ...options,
    fetch: ((input, init) => (attempts++, fetch(input, init))) as typeof fetch,
  };
  clock = 2_000;
  const down = await withRemoteTools([ready], counting);
  assert.equal(down.agents[0].operations.length, 4, "the last list is kept");
  assert.deepEqual(down.notes, []);
  assert.equal(attempts, 1);
  clock = 2_050;
  await withRemoteTools([ready], counting);
  assert.equal(attempts, 1, "not asked again before retryMs");
  clock = 2_100;
  await withRemoteTools([ready], counting);
  assert.equal(attempts, 2, "asked again after it");

  const never: ReadyAgent = { agent: agent(remote.url), operations: [], headers: {} };
  const missing = await withRemoteTools([never], options);
  assert.equal(missing.agents[0].operations.length, 0);
  assert.match(missing.notes[0], /"Museum" \(an MCP server\) cannot be used right now/);
});
