/**
 * "Use with your AI tool" in Chromium at 390 and 1440 px: the footer's block opens, shows the
 * three snippets with this site's /mcp, fits the width, and is screenshotted
 * (test-results/screenshots/ai-tool-<width>.png).
 */
import assert from "node:assert/strict";
import { launchBrowser, screenshotDir, watchPage } from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { testConfig } from "../support/chat_client.ts";

Deno.test("e2e ai tool: the footer's MCP snippets open and fit at 390 and 1440 px", async () => {
  const server = await startTestServer({ config: testConfig() });
  const browser = await launchBrowser();
  const dir = await screenshotDir();
  try {
    for (const width of [390, 1440]) {
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        locale: "pt-BR",
      });
      try {
        const page = await context.newPage();
        const seen = watchPage(page);
        await page.goto(`${server.url}/sobre/como-funciona`);
        await page.locator(".ai-tool summary").click();
        const snippets = page.locator(".ai-tool pre");
        assert.equal(await snippets.count(), 3);
        assert.ok((await snippets.first().innerText()).includes(`${server.url}/mcp`));
        await page.locator(".ai-tool").scrollIntoViewIfNeeded();
        const wide = await page.evaluate(() =>
          document.documentElement.scrollWidth > globalThis.innerWidth
        );
        assert.equal(wide, false, `no sideways scroll at ${width} px`);
        await page.screenshot({ path: `${dir}/ai-tool-${width}.png` });
        assert.deepEqual(seen.errors, []);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
});
