import assert from "node:assert/strict";
import { operationNeedsApproval, validateAgentConfig } from "./agent_config.ts";
import { AgentConfigError, type McpAgentConfig } from "./types.ts";
import defaultConfig from "@/fresh.config.ts";
import { defineConfig } from "@/lib/config.ts";

const server: McpAgentConfig = {
  kind: "mcp",
  id: "docs",
  name: "Docs",
  description: "The docs' MCP server.",
  baseUrl: "https://docs.example.com/mcp",
};

function refused(config: unknown, fragment: string) {
  assert.throws(() => validateAgentConfig(config as McpAgentConfig), (error: unknown) => {
    assert.ok(error instanceof AgentConfigError);
    assert.match(error.message, /^Agent "docs"/);
    assert.match(error.message, /Fix/);
    assert.ok(error.message.includes(fragment), error.message);
    return true;
  });
}

Deno.test("mcp agent config: a plain https endpoint passes; mistakes name the fix", () => {
  assert.equal(validateAgentConfig(server), server);
  refused({ ...server, baseUrl: "http://docs.example.com/mcp" }, "is not https");
  refused({ ...server, baseUrl: "self" }, "is not a plain http(s) URL");
  refused({ ...server, runIn: "browser" }, "runs on the server");
  refused({ ...server, approvalMode: "all" }, "autoRunReadOnly");
  refused({ ...server, tools: "search" }, '"tools" must be a list');
  refused({ ...server, autoRunReadOnly: "yes" }, '"autoRunReadOnly" is "yes"');
  refused({ ...server, kind: "graphql" }, '"kind" is "graphql"');
  const local = { ...server, baseUrl: "http://127.0.0.1:9000/mcp", local: true };
  assert.equal(validateAgentConfig(local), local);
});

Deno.test("mcp agent config: every call waits unless the tool is read-only and the owner allows it, or a rule says so", () => {
  const op = (readOnly: boolean) => ({
    method: "POST" as const,
    toolName: "docs_search",
    mcp: { tool: "search", readOnly },
  });
  assert.equal(operationNeedsApproval(op(true), server), true, "read-only waits by default");
  assert.equal(operationNeedsApproval(op(false), { ...server, autoRunReadOnly: true }), true);
  assert.equal(operationNeedsApproval(op(true), { ...server, autoRunReadOnly: true }), false);
  // Rules name the server's tool, and win over the hint either way.
  assert.equal(
    operationNeedsApproval(op(true), {
      ...server,
      autoRunReadOnly: true,
      approval: { search: "always" },
    }),
    true,
  );
  assert.equal(
    operationNeedsApproval(op(false), { ...server, approval: { search: "never" } }),
    false,
  );
});

Deno.test("mcp agent config: the app's config takes an MCP agent without a spec", () => {
  const config = defineConfig({ ...defaultConfig, agents: [server] });
  assert.equal(config.agents?.[0], server);
});
