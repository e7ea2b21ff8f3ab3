/**
 * An MCP agent in Chromium: the model calls a remote MCP server's write tool; the card names
 * the tool and the server and holds the exact `tools/call` message; approving runs it once
 * on the real server on loopback and the card shows its result. Screenshot of the card.
 */
import assert from "node:assert/strict";
import { createScriptedModel, scriptedRegistry } from "@/lib/models/testing.ts";
import { readyAgents } from "@/lib/tools/load_agents.ts";
import {
  DESKTOP,
  launchBrowser,
  screenshotDir,
  viewContext,
  watchPage,
} from "../support/browser.ts";
import { testConfig } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";
import { startRemoteMcp } from "../support/remote_mcp.ts";
import { ask, openChat, runAxe } from "../support/ui.ts";

Deno.test({
  name:
    "e2e mcp agent: the card shows the remote tool, the server and the exact call; approving shows its result",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const remote = startRemoteMcp();
    const model = createScriptedModel([
      {
        type: "tool-call",
        toolName: "museum_book_visit",
        input: { name: "Ana", day: "2026-12-10" },
      },
      { type: "text", text: "Pronto: sua visita está marcada." },
    ]);
    const agents = readyAgents([{
      agent: {
        kind: "mcp",
        id: "museum",
        name: { "pt-BR": "Museu", en: "Museum" },
        description: "The museum's MCP server.",
        baseUrl: remote.url,
        local: true,
      },
      operations: [],
    }], {});
    const server = await startTestServer({
      config: testConfig(),
      services: { agents, models: scriptedRegistry(model) },
    });
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);
      await openChat(page, server.url + "/");
      await ask(page, "Quero marcar uma visita guiada");
      const card = page.locator(".approval-card[data-approval-state=approval-requested]");
      await card.waitFor({ timeout: 20_000 });
      await page.locator(".thread[aria-busy=false]").waitFor();
      assert.equal(
        await card.locator(".approval-mcp").textContent(),
        `Ferramenta “book_visit” do servidor MCP ${remote.url}.`,
      );
      assert.match((await card.locator(".approval-intro").textContent()) ?? "", /Museu/);
      await card.locator(".approval-details summary").click();
      assert.equal(await card.locator(".approval-url").textContent(), remote.url);
      const body = JSON.parse((await card.locator(".approval-body").textContent()) ?? "");
      assert.deepEqual(body.params, {
        name: "book_visit",
        arguments: { name: "Ana", day: "2026-12-10" },
      });
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${dir}/mcp-agent-card-1440.png` });
      const serious = (await runAxe(page)).filter((v) =>
        v.impact === "serious" || v.impact === "critical"
      );
      assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes.join(", ")}`), []);
      assert.equal(remote.bookings.length, 0, "nothing sent before approving");

      await card.getByRole("button", { name: /Aprovar/ }).click();
      const done = page.locator(".approval-card[data-approval-state=output-available]");
      await done.waitFor({ timeout: 20_000 });
      await page.locator(".msg-assistant .md").getByText(/visita está marcada/).waitFor();
      await done.locator(".approval-result summary").click();
      assert.match(
        (await done.locator(".approval-result pre").textContent()) ?? "",
        /Visita marcada para Ana em 2026-12-10/,
      );
      await done.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${dir}/mcp-agent-result-1440.png` });
      assert.deepEqual(remote.bookings, [{ name: "Ana", day: "2026-12-10" }]);
      assert.deepEqual(seen.errors, []);
    } finally {
      await browser.close();
      await server.close();
      await remote.close();
    }
  },
});
