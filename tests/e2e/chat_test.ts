import assert from "node:assert/strict";
import {
  forEachView,
  hasHorizontalScroll,
  launchBrowser,
  screenshotDir,
} from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { openChat } from "../support/ui.ts";

Deno.test({
  name: "e2e: a question streams a cited answer whose chip opens the cited page",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      await forEachView(browser, async ({ view, context, page, seen }) => {
        await openChat(page, server.url + "/");
        await page.locator("#composer-input").fill("Quais dados vocês guardam e por quanto tempo?");
        await page.keyboard.press("Enter");
        const answer = page.locator(".msg-assistant").last();
        await answer.locator(".md").first().waitFor();
        await answer.locator(".receipt").waitFor({ timeout: 15_000 });
        const text = await answer.locator(".md").first().innerText();
        assert.match(text, /^“/, "the offline model quotes the site");
        // Markdown (and so citation links) renders once its module is loaded.
        const cite = answer.locator("a.cite").first();
        await cite.waitFor({ timeout: 5_000 });
        assert.ok(await cite.count() > 0, "the answer has a citation");
        const chips = answer.locator(".sources a.chip");
        assert.ok(await chips.count() > 0, "source chips are shown");
        assert.match(page.url(), /\/c\/[A-Za-z0-9_-]+$/, "the URL names the chat");
        assert.equal(
          await hasHorizontalScroll(page),
          false,
          `no horizontal scroll at ${view.width}px`,
        );
        await page.screenshot({ path: `${dir}/chat-answer-${view.width}-${view.scheme}.png` });

        if (view.width === 1440 && view.scheme === "light") {
          const href = await chips.first().getAttribute("href");
          assert.ok(href?.includes("/sobre/"), `chip links a page (${href})`);
          const [doc] = await Promise.all([context.waitForEvent("page"), chips.first().click()]);
          await doc.waitForLoadState();
          const res = await doc.request.get(doc.url());
          assert.equal(res.status(), 200, "the cited page exists");
          assert.match(await doc.locator("h1").first().innerText(), /\S/);
          await doc.close();
        }
        assert.deepEqual(seen.errors, []);
        assert.deepEqual(seen.failed, []);
      });
      console.log(`Screenshots in ${dir}`);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
