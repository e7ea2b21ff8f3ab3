/**
 * What a new visitor tries first, in Chromium at 390 and 1440 px: /en for English, an old link
 * to a deleted chat (a 404 with the way home, in their language), and the home page's form
 * with JavaScript off (it posts, and the answer shows, rendered on the server).
 * Screenshots in test-results/screenshots/ (SCREENSHOT_DIR).
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext } from "playwright-core";
import { screenshotDir } from "../support/browser.ts";
import { withApp } from "../support/app_browser.ts";
import { ask, openChat, waitForAnswer } from "../support/ui.ts";

const E2E = { sanitizeOps: false, sanitizeResources: false };
const WIDTHS = [390, 1440] as const;

function context(
  browser: Browser,
  width: number,
  options: { locale?: string; javaScriptEnabled?: boolean } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width, height: width === 390 ? 844 : 900 },
    locale: options.locale ?? "pt-BR",
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
}

Deno.test({
  ...E2E,
  name: "e2e visitor paths: /en opens the home page in English, and it stays English",
  fn: () =>
    withApp(async (server, browser) => {
      const shots = await screenshotDir();
      for (const width of WIDTHS) {
        const ctx = await context(browser, width);
        const page = await ctx.newPage();
        const res = await page.goto(server.url + "/en");
        assert.equal(res?.status(), 200);
        assert.equal(new URL(page.url()).pathname, "/");
        assert.equal(await page.getAttribute("html", "lang"), "en");
        await page.locator(".conversation[data-hydrated=true]").waitFor();
        await page.screenshot({ path: `${shots}/visitor-en-home-${width}.png` });
        await page.goto(server.url + "/sobre/como-funciona");
        assert.equal(await page.getAttribute("html", "lang"), "en", "the next page too");
        await ctx.close();
      }
    }),
});

Deno.test({
  ...E2E,
  name: "e2e visitor paths: a deleted chat's link shows a 404 with the way home, in English",
  fn: () =>
    withApp(async (server, browser) => {
      const shots = await screenshotDir();
      for (const width of WIDTHS) {
        const ctx = await context(browser, width, { locale: "en-US" });
        const page = await ctx.newPage();
        await openChat(page, server.url);
        await ask(page, "How does the assistant find its answers?");
        await waitForAnswer(page);
        await page.waitForURL(/\/c\/[A-Za-z0-9_-]+$/);
        const chat = page.url();
        await page.goto(`${chat}/delete`);
        await page.locator(".confirm-actions button[type=submit]").click();
        await page.waitForURL(server.url + "/");
        const res = await page.goto(chat);
        assert.equal(res?.status(), 404);
        assert.equal(await page.locator("h1").textContent(), "Page not found");
        const back = page.locator("main.error-page a.button");
        assert.equal(await back.textContent(), "Back to the chat");
        await page.screenshot({ path: `${shots}/visitor-deleted-chat-404-${width}.png` });
        await back.click();
        await page.waitForURL(server.url + "/");
        await ctx.close();
      }
    }),
});

Deno.test({
  ...E2E,
  name: "e2e visitor paths: with JavaScript off the home form posts and shows the answer",
  fn: () =>
    withApp(async (server, browser) => {
      const shots = await screenshotDir();
      for (const width of WIDTHS) {
        const ctx = await context(browser, width, { javaScriptEnabled: false });
        const page = await ctx.newPage();
        await page.goto(server.url + "/");
        const send = page.locator("form.composer button[type=submit]");
        assert.equal(await send.isEnabled(), true, "the send button works without JavaScript");
        await page.fill("#composer-input", "Como o assistente encontra as respostas?");
        await page.screenshot({ path: `${shots}/visitor-nojs-home-${width}.png` });
        await Promise.all([page.waitForURL(/\/c\/[A-Za-z0-9_-]+$/), send.click()]);
        const text = await page.locator(".messages").innerText();
        assert.match(text, /Como o assistente encontra as respostas\?/);
        const answer = await page.locator(".msg-assistant").last()
          .innerText();
        assert.ok(answer.trim().length > 20, `the answer is on the page: "${answer}"`);
        await page.screenshot({ path: `${shots}/visitor-nojs-answer-${width}.png` });
        // The next question goes into the same chat.
        const chat = page.url();
        await page.fill("#composer-input", "E funciona sem internet?");
        await Promise.all([page.waitForURL(chat), send.click()]);
        assert.match(await page.locator(".messages").innerText(), /E funciona sem internet\?/);
        await ctx.close();
      }
    }),
});
