import assert from "node:assert/strict";
import {
  operationNeedsApproval,
  resolveAgentHeaders,
  secretHeaderNames,
  validateAgentConfig,
} from "./agent_config.ts";
import { AgentConfigError } from "./types.ts";
import type { AgentConfig } from "./types.ts";

const agent: AgentConfig = {
  id: "contact",
  name: "Contact",
  description: "Messages for the owner.",
  spec: "static/agents/contact.yaml",
  baseUrl: "https://api.example.com/v1",
  runIn: "server",
  headers: { Authorization: "Bearer ${CONTACT_TOKEN}", "X-Org": "7" },
};

function refused(config: AgentConfig, fragment: string) {
  assert.throws(() => validateAgentConfig(config), (error: unknown) => {
    assert.ok(error instanceof AgentConfigError);
    assert.match(error.message, /^Agent "/);
    assert.match(error.message, /Fix/);
    assert.ok(error.message.includes(fragment), error.message);
    return true;
  });
}

Deno.test("a valid agent passes unchanged", () => {
  assert.equal(validateAgentConfig(agent), agent);
  const local = { ...agent, baseUrl: "http://127.0.0.1:8080", local: true };
  assert.equal(validateAgentConfig(local), local);
  const browser = {
    ...agent,
    runIn: "browser" as const,
    baseUrl: "http://localhost:3000",
    headers: {},
  };
  assert.equal(validateAgentConfig(browser), browser);
});

Deno.test("bad ids, base URLs and runIn are explained", () => {
  refused({ ...agent, id: "Contact Us" }, '"Contact Us"');
  refused({ ...agent, baseUrl: "api.example.com" }, '"api.example.com"');
  refused({ ...agent, baseUrl: "https://u:p@api.example.com" }, "credentials");
  refused({ ...agent, baseUrl: "http://api.example.com" }, "not https");
  refused({ ...agent, runIn: "edge" as never }, '"edge"');
});

Deno.test("a browser agent cannot carry environment secrets", () => {
  refused({ ...agent, runIn: "browser" }, '"Authorization"');
});

Deno.test("headers resolve ${ENV} references; a missing variable is explained", () => {
  assert.deepEqual(resolveAgentHeaders(agent, { CONTACT_TOKEN: "t0k" }), {
    Authorization: "Bearer t0k",
    "X-Org": "7",
  });
  assert.throws(() => resolveAgentHeaders(agent, {}), /CONTACT_TOKEN, which is not set.*Fix/);
  assert.deepEqual(secretHeaderNames(agent), ["Authorization", "X-Org"]);
});

Deno.test("approvalMode: writes by default, all asks for reads too, the per-operation rule wins", () => {
  const get = { method: "GET" as const, toolName: "getInfo" };
  const head = { method: "HEAD" as const, toolName: "peek" };
  const post = { method: "POST" as const, toolName: "send" };
  const ask = (mode: AgentConfig["approvalMode"], approval?: AgentConfig["approval"]) =>
    [get, head, post].map((op) => operationNeedsApproval(op, { approvalMode: mode, approval }));
  assert.deepEqual(ask(undefined), [false, false, true]);
  assert.deepEqual(ask("writes"), [false, false, true]);
  assert.deepEqual(ask("all"), [true, true, true]);
  assert.deepEqual(ask("all", { getInfo: "never" }), [false, true, true], "an allow-list");
  assert.deepEqual(ask("writes", { getInfo: "always", send: "never" }), [true, false, false]);
  assert.equal(validateAgentConfig({ ...agent, approvalMode: "all" }).approvalMode, "all");
  refused({ ...agent, approvalMode: "reads" as never }, '"approvalMode" is "reads"');
});
