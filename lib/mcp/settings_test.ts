import assert from "node:assert/strict";
import { DEFAULT_MCP_GLOBAL_RPM, mcpSettingsFromEnv } from "./settings.ts";

Deno.test("mcp settings: on by default, no token, the offline model, the default ceiling", () => {
  const s = mcpSettingsFromEnv({});
  assert.equal(s.enabled, true);
  assert.equal(s.token, null);
  assert.equal(s.askModel, "local");
  assert.equal(s.global.requestsPerMinute, DEFAULT_MCP_GLOBAL_RPM);
});

Deno.test("mcp settings: MCP_ENABLED, MCP_TOKEN and the ceiling are read and checked", () => {
  assert.equal(mcpSettingsFromEnv({ MCP_ENABLED: "false" }).enabled, false);
  assert.equal(mcpSettingsFromEnv({ MCP_ENABLED: "off" }).enabled, false);
  assert.equal(mcpSettingsFromEnv({ MCP_ENABLED: "true" }).enabled, true);
  assert.throws(() => mcpSettingsFromEnv({ MCP_ENABLED: "maybe" }), /set it to true or false/);
  assert.equal(
    mcpSettingsFromEnv({ MCP_TOKEN: " a-long-enough-token " }).token,
    "a-long-enough-token",
  );
  assert.throws(() => mcpSettingsFromEnv({ MCP_TOKEN: "short" }), /shorter than 16/);
  assert.equal(
    mcpSettingsFromEnv({ MCP_GLOBAL_REQUESTS_PER_MINUTE: "30" }).global.requestsPerMinute,
    30,
  );
  assert.throws(() => mcpSettingsFromEnv({ MCP_GLOBAL_REQUESTS_PER_MINUTE: "0" }), /whole number/);
});
