/**
 * The related questions under the last answer, in Chromium at 390 and 1440 px: the FAQ
 * entries the search found and the answer did not quote, each a button that asks it, with
 * JavaScript (the island sends it) and without (the chat's form posts it). An off-topic
 * question gets none; a section whose heading holds the question is offered by that heading.
 * Screenshots in test-results/screenshots/ (SCREENSHOT_DIR).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasHorizontalScroll, screenshotDir, watchPage } from "../support/browser.ts";
import { withApp } from "../support/app_browser.ts";
import { ask, openChat, runAxe, waitForAnswer } from "../support/ui.ts";

const E2E = { sanitizeOps: false, sanitizeResources: false };
const WIDTHS = [390, 1440] as const;
/** Our site's FAQ answers this from "Preciso criar uma conta…?" and has other entries about it. */
const QUESTION = "O que o cookie guarda sobre mim?";

/** The related questions under the last answer, as its buttons read. */
function relatedUnderLast(page: Page): Promise<string[]> {
  return page.locator(".msg-assistant").last().locator("form.related button")
    .allInnerTexts();
}

/** The titles of the sources the last answer cites. */
function citedTitles(page: Page): Promise<string[]> {
  return page.locator(".msg-assistant").last().locator(".sources .chip-preview strong")
    .allTextContents();
}

Deno.test({
  ...E2E,
  name: "e2e related questions: a click asks an entry the answer did not quote",
  fn: () =>
    withApp(async (server, browser) => {
      const shots = await screenshotDir();
      for (const width of WIDTHS) {
        const ctx = await browser.newContext({
          viewport: { width, height: width === 390 ? 844 : 900 },
          locale: "pt-BR",
        });
        const page = await ctx.newPage();
        const seen = watchPage(page);
        await openChat(page, server.url + "/");
        await ask(page, QUESTION);
        await waitForAnswer(page);
        const related = await relatedUnderLast(page);
        assert.ok(related.length >= 1 && related.length <= 3, `1 to 3 questions: ${related}`);
        const cited = await citedTitles(page);
        for (const q of related) {
          assert.match(q, /\?$/, `an FAQ entry's question: ${q}`);
          assert.ok(!cited.some((t) => t.endsWith(q)), `"${q}" is not the quoted entry`);
        }
        assert.equal(
          await page.locator(".msg-assistant").last().locator(".related-title").textContent(),
          "Perguntas relacionadas",
        );
        assert.equal(await hasHorizontalScroll(page), false);
        const serious = (await runAxe(page)).filter((v) =>
          v.impact === "serious" || v.impact === "critical"
        );
        assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes.join(", ")}`), []);
        await page.screenshot({ path: `${shots}/related-questions-${width}.png` });

        await page.locator("form.related button").first().click();
        await waitForAnswer(page);
        const asked = await page.locator(".msg-user .bubble").allInnerTexts();
        assert.deepEqual(asked, [QUESTION, related[0]], "the click asked the entry's question");
        const now = await citedTitles(page);
        assert.ok(
          now.some((t) => t.endsWith(related[0])),
          `the answer quotes the entry asked: ${now}`,
        );
        assert.equal(
          await page.locator(".msg-assistant").first().locator("form.related").count(),
          0,
          "only the last answer offers questions",
        );

        await ask(page, "Vocês entregam pizza?");
        await waitForAnswer(page);
        assert.deepEqual(await relatedUnderLast(page), [], "an off-topic question gets none");
        // The first question again: its answer's questions but the one already asked.
        await ask(page, QUESTION);
        await waitForAnswer(page);
        assert.deepEqual(await relatedUnderLast(page), related.slice(1));
        assert.deepEqual(seen.errors, []);
        await ctx.close();
      }
    }),
});

Deno.test({
  ...E2E,
  name: "e2e related questions: with JavaScript off a related question posts the chat's form",
  fn: () =>
    withApp(async (server, browser) => {
      const shots = await screenshotDir();
      const ctx = await browser.newContext({
        viewport: { width: 390, height: 844 },
        locale: "pt-BR",
        javaScriptEnabled: false,
      });
      const page = await ctx.newPage();
      await page.goto(server.url + "/");
      await page.fill("#composer-input", QUESTION);
      await Promise.all([
        page.waitForURL(/\/c\/[A-Za-z0-9_-]+$/),
        page.locator("form.composer button[type=submit]").click(),
      ]);
      const chat = page.url();
      const related = await relatedUnderLast(page);
      assert.ok(related.length >= 1, "the saved answer shows its related questions");
      await Promise.all([
        page.waitForURL(chat),
        page.locator("form.related button").first().click(),
      ]);
      const asked = await page.locator(".msg-user .bubble").allInnerTexts();
      assert.deepEqual(asked, [QUESTION, related[0]]);
      await page.screenshot({ path: `${shots}/related-questions-nojs-390.png` });
      await ctx.close();
    }),
});

Deno.test({
  ...E2E,
  name: "e2e related questions: a section named by the question is offered by its heading",
  fn: () =>
    withApp(async (server, browser) => {
      const shots = await screenshotDir();
      for (const scheme of ["light", "dark"] as const) {
        const ctx = await browser.newContext({
          viewport: { width: 1440, height: 900 },
          locale: "pt-BR",
          colorScheme: scheme,
        });
        const page = await ctx.newPage();
        const seen = watchPage(page);
        await openChat(page, server.url + "/");
        // Answered from an FAQ entry; the page about accessibility has a section on it.
        await ask(page, "Dá para usar só com o teclado?");
        await waitForAnswer(page);
        const related = await relatedUnderLast(page);
        const section = "Acessibilidade: sem JavaScript e pelo teclado";
        assert.ok(related.includes(section), `the section offered: ${related}`);
        await page.screenshot({ path: `${shots}/related-section-1440-${scheme}.png` });
        await page.locator("form.related button", { hasText: section }).click();
        await waitForAnswer(page);
        const now = await citedTitles(page);
        assert.ok(now.some((t) => t.endsWith(section)), `the answer quotes the section: ${now}`);
        assert.deepEqual(seen.errors, []);
        await ctx.close();
      }
    }),
});
