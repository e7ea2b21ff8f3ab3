/**
 * The agent picker in the browser: beside the composer on a new chat at 360 and 1440 px
 * (no sideways scroll), `?agent=` preselected after hydration; picking an agent sends it
 * as `agent` in the POST body, the answer is saved with that `agentId` and labelled with
 * the agent's name, and the saved chat shows no picker, before and after a reload.
 */
import assert from "node:assert/strict";
import type { Request } from "playwright-core";
import {
  DESKTOP,
  forEachView,
  hasHorizontalScroll,
  launchBrowser,
  screenshotDir,
  viewContext,
  watchPage,
} from "../support/browser.ts";
import { SHOP, twoAgents } from "../support/agents.ts";
import { testConfig } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";
import { localize } from "@/lib/i18n/localized.ts";
import { ask, openChat, runAxe, waitForAnswer } from "../support/ui.ts";

const E2E = { sanitizeOps: false, sanitizeResources: false };
const PICKER = "select.agent-picker";

Deno.test({
  ...E2E,
  name: "e2e agent picker: shown on a new chat at every view, ?agent= preselects",
  async fn() {
    const server = await startTestServer({
      config: testConfig(),
      services: { agents: await twoAgents() },
    });
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      await forEachView(browser, async ({ view, page, seen }) => {
        await openChat(page, server.url + "/?agent=shop");
        const picker = page.locator(PICKER);
        await picker.waitFor();
        assert.equal(await picker.inputValue(), "shop", "?agent= is selected after hydration");
        assert.equal(await picker.getAttribute("aria-label"), "Agente");
        assert.equal(
          await hasHorizontalScroll(page),
          false,
          `no sideways scroll at ${view.width}px`,
        );
        const box = await picker.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= view.width, "the picker is on screen");
        await page.screenshot({ path: `${dir}/agent-picker-${view.width}-${view.scheme}.png` });
        const axe = await runAxe(page, ["select-name", "label", "color-contrast", "target-size"]);
        assert.deepEqual(axe, [], JSON.stringify(axe, null, 2));
        assert.deepEqual(seen.errors, []);
        assert.deepEqual(seen.failed, []);
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  ...E2E,
  name: "e2e agent picker: the picked agent is sent, saved as agentId and names the answer",
  async fn() {
    const server = await startTestServer({
      config: testConfig(),
      services: { agents: await twoAgents() },
    });
    const browser = await launchBrowser();
    const context = await viewContext(browser, DESKTOP);
    try {
      const page = await context.newPage();
      const seen = watchPage(page);
      const posts: Request[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST" && new URL(r.url()).pathname === "/api/chat") posts.push(r);
      });
      await openChat(page, server.url + "/");
      assert.equal(await page.locator(PICKER).inputValue(), "", "all agents by default");
      await page.locator(PICKER).selectOption("shop");
      await ask(page, "Quais dados vocês guardam e por quanto tempo?");
      await waitForAnswer(page);
      assert.equal(posts.length, 1);
      assert.equal(posts[0].postDataJSON().agent, "shop", "the POST body carries the agent");
      assert.equal(await page.locator(PICKER).count(), 0, "no picker once the chat has begun");
      // The server answers as the picked agent (lib/chat/turn/plan.ts `agentId`).
      const label = page.locator(".msg-assistant .agent-label").last();
      assert.equal(await label.innerText(), localize(SHOP.name, "pt-BR"));

      const chatId = new URL(page.url()).pathname.split("/").pop()!;
      const saved = await server.services.store.loadMessages(chatId);
      const answer = saved.findLast((m) => m.role === "assistant");
      assert.equal((answer?.metadata as { agentId?: string })?.agentId, "shop");

      // A saved chat keeps its agent: no picker, and the next question sends it again.
      await openChat(page, page.url());
      assert.equal(await page.locator(PICKER).count(), 0);
      assert.equal(await label.innerText(), localize(SHOP.name, "pt-BR"));
      await ask(page, "E os cookies?");
      await page.locator(".msg-assistant").nth(1).locator(".answer-actions").waitFor({
        timeout: 20_000,
      });
      assert.equal(posts.at(-1)?.postDataJSON().agent, "shop", "a saved chat keeps its agent");
      assert.deepEqual(seen.errors, []);
      assert.deepEqual(seen.failed, []);
    } finally {
      await context.close();
      await browser.close();
      await server.close();
    }
  },
});
