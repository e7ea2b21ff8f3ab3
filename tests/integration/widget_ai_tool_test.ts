/**
 * The widget's "Use with your AI tool": /widget renders the bar's button with this site's
 * /mcp in the island's props when the MCP server is on, and neither with MCP_ENABLED=false.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { testConfig } from "../support/chat_client.ts";

Deno.test("widget: the bar offers 'Use with your AI tool' for this site's /mcp, in both languages", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const pt = await (await fetch(`${server.url}/widget`)).text();
    assert.match(pt, /aria-label="Usar com sua ferramenta de IA"/);
    assert.ok(pt.includes(`${server.url}/mcp`), "the island gets the MCP URL");
    const en = await (await fetch(`${server.url}/widget?lang=en`)).text();
    assert.match(en, /aria-label="Use with your AI tool"/);
  } finally {
    await server.close();
  }
});

Deno.test("widget: no 'Use with your AI tool' when MCP_ENABLED=false", async () => {
  const server = await startTestServer({ config: testConfig(), env: { MCP_ENABLED: "false" } });
  try {
    const html = await (await fetch(`${server.url}/widget`)).text();
    assert.ok(!html.includes("ferramenta de IA"));
    assert.ok(!html.includes("/mcp"));
  } finally {
    await server.close();
  }
});
