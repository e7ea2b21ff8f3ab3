import assert from "node:assert/strict";
import { forEachView, launchBrowser, screenshotDir } from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";

const PAGE = "/sobre/como-funciona";
const ANCHOR = "modelos-com-e-sem-chave";

Deno.test({
  name: "e2e: a corpus page reads well at every size and scheme, and highlights its #anchor",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      await forEachView(browser, async ({ view, page, seen }) => {
        await page.goto(server.url + PAGE);
        assert.equal(await page.locator("h1").textContent(), "Como funciona o assistente");
        assert.equal(await page.locator("script").count(), 0, "a corpus page ships no JS");
        const layout = await page.evaluate(() => ({
          overflow: document.documentElement.scrollWidth > innerWidth,
          column: document.querySelector(".doc")!.getBoundingClientRect().width,
        }));
        assert.equal(layout.overflow, false, `no horizontal scroll at ${view.width}px`);
        assert.ok(layout.column <= 722, `article column ${layout.column}px is at most ~720px`);
        await page.screenshot({ path: `${dir}/doc-${view.width}-${view.scheme}.png` });
        await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
        await page.screenshot({ path: `${dir}/doc-end-${view.width}-${view.scheme}.png` });

        // Reached through a passage URL: the heading is in view and its section highlighted.
        await page.goto(`${server.url}${PAGE}#${ANCHOR}`);
        const target = await page.evaluate((id) => {
          const h = document.getElementById(id)!;
          const section = h.closest(".doc-section")!;
          const top = h.getBoundingClientRect().top;
          return {
            matches: h.matches(":target"),
            inView: top >= 0 && top < innerHeight / 2,
            background: getComputedStyle(section).backgroundColor,
            body: getComputedStyle(document.body).backgroundColor,
          };
        }, ANCHOR);
        assert.ok(target.matches, "the anchored heading is :target");
        assert.ok(target.inView, "the anchored heading is scrolled into view, below the header");
        assert.notEqual(target.background, "rgba(0, 0, 0, 0)", "the target section is highlighted");
        await page.waitForTimeout(1700); // let the highlight's pulse end before the screenshot
        await page.screenshot({ path: `${dir}/doc-target-${view.width}-${view.scheme}.png` });

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
