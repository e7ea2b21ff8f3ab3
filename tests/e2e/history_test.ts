import assert from "node:assert/strict";
import { createModelRegistry } from "@/lib/models/registry.ts";
import {
  DESKTOP,
  launchBrowser,
  screenshotDir,
  viewContext,
  watchPage,
} from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { waitForAnswer } from "../support/ui.ts";

Deno.test({
  name:
    "e2e: history survives a reload, reads without JavaScript, and a stopped answer stays marked",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // A slow offline model, so there is time to press stop.
    const server = await startTestServer({
      services: { models: createModelRegistry({ env: {}, local: { delayMs: 120 } }) },
    });
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);
      await page.goto(server.url + "/");
      await page.waitForSelector(".conversation[data-hydrated=true]");

      // 1. A full answer, then a reload: the conversation is there.
      await page.locator("#composer-input").fill(
        "Como faço para publicar o assistente no meu site?",
      );
      await page.keyboard.press("Enter");
      await page.locator(".msg-assistant .receipt").first().waitFor({ timeout: 30_000 });
      await waitForAnswer(page, 30_000);
      const answer = await page.locator(".msg-assistant .md").first().innerText();
      const chatUrl = page.url();
      assert.match(chatUrl, /\/c\//);
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      assert.equal(await page.locator(".msg-assistant .md").first().innerText(), answer);
      assert.equal(await page.locator(".msg-user").count(), 1);
      assert.ok(
        await page.locator(".chat-items li.current").count() === 1,
        "the chat is in the list",
      );

      // 2. Stop mid-answer, reload: the partial answer is there, marked as interrupted.
      await page.locator("#composer-input").fill("Quais dados vocês guardam e por quanto tempo?");
      await page.keyboard.press("Enter");
      await page.locator(".msg-assistant").nth(1).locator(".md").waitFor();
      await page.keyboard.press("Escape");
      await page.locator(".msg-assistant").nth(1).locator(".interrupted").waitFor();
      const partial = await page.locator(".msg-assistant").nth(1).locator(".md").innerText();
      await page.waitForTimeout(300);
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      const second = page.locator(".msg-assistant").nth(1);
      await second.locator(".interrupted").waitFor();
      const saved = await second.locator(".md").innerText();
      // The server may have kept a word or two more than the browser showed before the stop reached it.
      assert.ok(
        saved.length > 0 && saved.startsWith(partial),
        `the partial answer was kept: ${partial} / ${saved}`,
      );
      await page.screenshot({ path: `${dir}/history-reloaded-1440-light.png` });
      assert.deepEqual(seen.errors, []);

      // 3. The same chat with JavaScript off: readable, formatted, cited.
      const cookies = await context.cookies();
      const noJs = await browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: 360, height: 740 },
      });
      await noJs.addCookies(cookies);
      const plain = await noJs.newPage();
      await plain.goto(chatUrl);
      assert.equal(await plain.locator(".msg-user").count(), 2);
      assert.ok(
        await plain.locator(".msg-assistant .md p").count() > 0,
        "markdown is rendered on the server",
      );
      assert.ok(
        await plain.locator(".msg-assistant a.cite").count() > 0,
        "citations link to their sources",
      );
      assert.equal(await plain.locator(".msg-assistant .interrupted").count(), 1);
      await plain.screenshot({ path: `${dir}/history-nojs-360-light.png`, fullPage: true });

      // 4. Another browser (another visitor) cannot open it.
      const stranger = await browser.newContext();
      const res = await (await stranger.newPage()).goto(chatUrl);
      assert.equal(res?.status(), 404);
      console.log(`Screenshots in ${dir}`);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
