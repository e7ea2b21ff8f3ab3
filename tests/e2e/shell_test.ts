import assert from "node:assert/strict";
import { launchBrowser, screenshotDir, VIEWS, watchPage } from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";

Deno.test({
  name: "e2e: the chat shell hydrates cleanly at every size and scheme",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      for (const view of VIEWS) {
        const context = await browser.newContext({
          viewport: { width: view.width, height: view.height },
          colorScheme: view.scheme,
          locale: "pt-BR",
        });
        const page = await context.newPage();
        const seen = watchPage(page);
        await page.goto(server.url + "/");
        await page.waitForSelector(".conversation[data-hydrated=true]", { timeout: 10_000 });
        await page.getByRole("button", { name: "Como o assistente encontra as respostas?" })
          .click();
        assert.equal(
          await page.locator("#composer-input").inputValue(),
          "Como o assistente encontra as respostas?",
        );
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth > globalThis.innerWidth
        );
        assert.equal(overflow, false, `no horizontal scroll at ${view.width}px`);
        const file = `${dir}/shell-${view.width}-${view.scheme}.png`;
        await page.screenshot({ path: file });
        assert.deepEqual(seen.errors, [], "no console errors");
        assert.deepEqual(seen.failed, [], "no failed requests");
        await context.close();
      }
      console.log(`Screenshots in ${dir}`);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
