/**
 * Accessibility of the chat UI: a keyboard-only path (Tab, Enter, Shift+Enter,
 * Esc, focus after sending), accessible names on every control, and axe-core on
 * the empty, streaming and finished states in light and dark.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createModelRegistry } from "@/lib/models/registry.ts";
import { DESKTOP, launchBrowser, viewContext, watchPage } from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { testConfig } from "../support/chat_client.ts";
import { ask, openChat, runAxe, waitForAnswer } from "../support/ui.ts";

const E2E = { sanitizeOps: false, sanitizeResources: false };

function slowServer(delayMs: number) {
  return startTestServer({
    config: testConfig(),
    services: { models: createModelRegistry({ env: {}, local: { delayMs } }) },
  });
}

/** The id (or tag) of the focused element. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el?.id || el?.tagName.toLowerCase() || "";
  });
}

/** Controls (buttons, links, selects, text fields, summaries) that have no accessible name. */
function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const textOf = (el: Element): string => {
      let out = "";
      for (const node of el.childNodes) {
        if (node.nodeType === Node.TEXT_NODE) out += node.textContent;
        else if (node instanceof Element && node.getAttribute("aria-hidden") !== "true") {
          out += node instanceof HTMLImageElement ? node.alt : textOf(node);
        }
      }
      return out;
    };
    const nameOf = (el: HTMLElement): string => {
      const by = el.getAttribute("aria-labelledby");
      if (by) {
        return by.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? "")
          .join(" ");
      }
      const label = el.getAttribute("aria-label");
      if (label) return label;
      const labels = (el as HTMLInputElement).labels;
      if (labels?.length) return [...labels].map((l) => l.textContent).join(" ");
      if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) {
        return el.title || el.placeholder || "";
      }
      if (el instanceof HTMLSelectElement) return el.title;
      return textOf(el).trim() || el.title;
    };
    const controls = document.querySelectorAll<HTMLElement>(
      "button, a[href], select, textarea, input:not([type=hidden]), summary, [role=button], [tabindex]:not([tabindex='-1'])",
    );
    return [...controls].filter((el) => !nameOf(el).trim()).map((el) => el.outerHTML.slice(0, 160));
  });
}

Deno.test({
  ...E2E,
  name: "e2e a11y: keyboard only: Tab, Shift+Enter, Enter, Esc; focus stays in the composer",
  async fn() {
    // Offline answers are short: 120 ms a word leaves time to press Esc mid-answer.
    const server = await slowServer(120);
    const browser = await launchBrowser();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);
      await openChat(page, server.url + "/");
      assert.deepEqual(await unnamedControls(page), [], "every control on the empty page is named");

      // Tab from the top of the page reaches the composer.
      const stops: string[] = [];
      for (let i = 0; i < 40 && (await focused(page)) !== "composer-input"; i++) {
        await page.keyboard.press("Tab");
        stops.push(await focused(page));
      }
      assert.equal(await focused(page), "composer-input", `Tab stops: ${stops.join(", ")}`);
      console.log(`Tab stops to the composer: ${stops.join(" → ")}`);

      // Shift+Enter is a newline; Enter sends.
      await page.keyboard.type("Quais dados vocês guardam");
      await page.keyboard.press("Shift+Enter");
      await page.keyboard.type("e por quanto tempo?");
      const composer = page.locator("#composer-input");
      assert.equal(await composer.inputValue(), "Quais dados vocês guardam\ne por quanto tempo?");
      assert.equal(await page.locator(".msg-user").count(), 0, "Shift+Enter did not send");
      await page.keyboard.press("Enter");
      await page.locator(".msg-user").waitFor();
      assert.equal(
        await page.locator(".msg-user .bubble").innerText(),
        "Quais dados vocês guardam\ne por quanto tempo?",
      );
      assert.equal(await composer.inputValue(), "", "the composer is cleared");
      assert.equal(await focused(page), "composer-input", "focus stays in the composer");

      // Esc stops the streaming answer; focus is in the composer afterwards.
      await page.locator(".msg-assistant .md").first().waitFor();
      await page.keyboard.press("Escape");
      await page.locator(".msg-assistant .interrupted").waitFor();
      await page.locator(".thread[aria-busy=false]").waitFor();
      assert.equal(await focused(page), "composer-input", "focus is in the composer after a stop");

      // A suggestion chosen with the keyboard on a new chat: focus moves to the composer (the
      // suggestion button goes away), so Esc still reaches the stop, and a full answer follows.
      await openChat(page, server.url + "/");
      await page.locator("button.suggestion").first().focus();
      await page.keyboard.press("Enter");
      await page.locator(".msg-user").waitFor();
      await page.locator(".msg-assistant .md").first().waitFor();
      assert.equal(await focused(page), "composer-input", "focus moved to the composer");
      await page.keyboard.press("Escape");
      await page.locator(".msg-assistant .interrupted").waitFor();

      await page.keyboard.type("Como faço para publicar o assistente no meu site?");
      await page.keyboard.press("Enter");
      await waitForAnswer(page, 30_000);
      assert.equal(
        await focused(page),
        "composer-input",
        "focus is in the composer after an answer",
      );

      // Every interactive control on a page with answers, actions, sources and receipts is named.
      assert.deepEqual(await unnamedControls(page), []);
      const names = await runAxe(page, [
        "button-name",
        "link-name",
        "select-name",
        "label",
        "aria-command-name",
        "summary-name",
        "aria-input-field-name",
      ]);
      assert.deepEqual(names, [], JSON.stringify(names, null, 2));
      assert.deepEqual(seen.errors, []);
      assert.deepEqual(
        seen.failed.filter((f) => !/POST \S+\/api\/chat net::ERR_ABORTED/.test(f)),
        [],
        "only the two stopped answers were aborted",
      );
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  ...E2E,
  name: "e2e a11y: axe finds no violations of any impact (empty, streaming, finished; light, dark)",
  async fn() {
    // The offline answer here is a dozen words: 150 ms a word keeps it streaming for the check.
    const server = await slowServer(150);
    const browser = await launchBrowser();
    const problems: string[] = [];
    const check = async (page: Page, label: string) => {
      // Moderate ones too: a conversation without an h1 ("page-has-heading-one") left a screen
      // reader's heading navigation nowhere to land once the welcome was gone.
      for (const v of await runAxe(page)) {
        problems.push(`${label}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes.join("\n    ")}`);
      }
    };
    try {
      for (const scheme of ["light", "dark"] as const) {
        const context = await browser.newContext({
          viewport: { width: 1440, height: 900 },
          colorScheme: scheme,
          locale: "pt-BR",
        });
        const page = await context.newPage();
        await openChat(page, server.url + "/");
        await check(page, `empty ${scheme}`);
        await ask(page, "Quais dados vocês guardam e por quanto tempo?");
        await page.locator(".msg-assistant .md").first().waitFor();
        assert.equal(await page.locator(".thread[aria-busy=true]").count(), 1, "still streaming");
        await check(page, `streaming ${scheme}`);
        await waitForAnswer(page);
        await page.locator(".msg-assistant .receipt summary").click(); // open the details too
        await check(page, `finished ${scheme}`);
        assert.equal(
          await page.locator("h1").innerText(),
          "Conversa: Quais dados vocês guardam e por quanto tempo?",
          "the conversation's heading names it by its first question",
        );
        await context.close();

        // The narrow layout (drawer button instead of the sidebar), empty state.
        const narrow = await browser.newContext({
          viewport: { width: 360, height: 740 },
          colorScheme: scheme,
          locale: "pt-BR",
        });
        const small = await narrow.newPage();
        await openChat(small, server.url + "/");
        await check(small, `empty 360 ${scheme}`);
        // The drawer's switch lives in the banner now: its button still opens the chat list,
        // and the backdrop still closes it.
        const inView = () =>
          small.locator(".chat-list").evaluate((el) => el.getBoundingClientRect().right > 0);
        assert.equal(await inView(), false, "the drawer starts closed");
        await small.locator(".drawer-button").click();
        await small.waitForFunction(() =>
          document.querySelector(".chat-list")!.getBoundingClientRect().left >= 0
        );
        await check(small, `drawer open 360 ${scheme}`);
        await small.locator(".drawer-backdrop").click({ position: { x: 350, y: 400 } });
        await small.waitForFunction(() =>
          document.querySelector(".chat-list")!.getBoundingClientRect().right <= 0
        );
        await narrow.close();
      }
      assert.deepEqual(problems, [], problems.join("\n"));
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
