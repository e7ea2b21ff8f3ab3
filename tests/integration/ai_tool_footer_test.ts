/**
 * "Use with your AI tool" (issue 39, discoverability): the footer of the chat and of the doc
 * pages offers Claude Code, Cursor and VS Code snippets for the site's /mcp, server-rendered;
 * with MCP_ENABLED=false it offers nothing.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { testConfig } from "../support/chat_client.ts";

const PAGES = ["/", "/sobre/como-funciona", "/en/about/how-it-works"];

Deno.test("footer: the AI tool snippets point at this site's /mcp", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    for (const path of PAGES) {
      const html = await (await fetch(server.url + path)).text();
      const footer = html.slice(html.indexOf('<footer class="footer">'));
      assert.match(footer, /<details class="ai-tool">/, path);
      assert.ok(
        footer.includes(`claude mcp add --transport http site-assistant ${server.url}/mcp`),
      );
      assert.ok(footer.includes("Cursor (.cursor/mcp.json)"));
      assert.ok(footer.includes("VS Code (.vscode/mcp.json)"));
      assert.ok(footer.includes(`&quot;type&quot;: &quot;http&quot;`), "VS Code's entry");
      assert.ok(footer.includes(`${server.url}/llms.txt`));
    }
    const en = await (await fetch(`${server.url}/en/about/how-it-works`, {
      headers: { "accept-language": "en" },
    })).text();
    assert.ok(en.includes("Use with your AI tool"));
    const pt = await (await fetch(`${server.url}/sobre/como-funciona`)).text();
    assert.ok(pt.includes("Use com sua ferramenta de IA"));
  } finally {
    await server.close();
  }
});

Deno.test("footer: no AI tool snippets when MCP_ENABLED=false", async () => {
  const server = await startTestServer({ config: testConfig(), env: { MCP_ENABLED: "false" } });
  try {
    for (const path of PAGES) {
      const html = await (await fetch(server.url + path)).text();
      assert.ok(!html.includes("ai-tool"), path);
      assert.ok(!html.includes("/mcp"), path);
    }
  } finally {
    await server.close();
  }
});
