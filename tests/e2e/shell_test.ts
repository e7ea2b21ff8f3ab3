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
  name: "e2e: the chat shell hydrates cleanly at every size and scheme",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      await forEachView(browser, async ({ view, page, seen }) => {
        await openChat(page, server.url + "/");
        assert.equal(
          await hasHorizontalScroll(page),
          false,
          `no horizontal scroll at ${view.width}px`,
        );
        const file = `${dir}/shell-${view.width}-${view.scheme}.png`;
        await page.screenshot({ path: file });
        // A suggested question is sent at once and answered.
        await page.getByRole("button", { name: "O assistente pode inventar coisas?" }).click();
        await page.locator(".msg-user", { hasText: "O assistente pode inventar coisas?" })
          .waitFor();
        await page.locator(".msg-assistant .receipt").waitFor({ timeout: 15_000 });
        assert.deepEqual(seen.errors, [], "no console errors");
        assert.deepEqual(seen.failed, [], "no failed requests");
      });
      console.log(`Screenshots in ${dir}`);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
