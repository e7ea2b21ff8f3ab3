/**
 * In Chromium, as a visitor types: small talk gets a reply in kind with no source chips, and
 * the question after a greeting gets the cited answer it gets without one and names the chat.
 */
import assert from "node:assert/strict";
import {
  DESKTOP,
  launchBrowser,
  screenshotDir,
  viewContext,
  watchPage,
} from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { openChat } from "../support/ui.ts";
import { smallTalkReply } from "@/lib/models/local_small_talk.ts";

Deno.test({
  name: "e2e: 'Oi, tudo bem?' gets a greeting without sources; a greeted question a cited answer",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    const context = await viewContext(browser, DESKTOP);
    try {
      const page = await context.newPage();
      const seen = watchPage(page);
      await openChat(page, server.url + "/");
      const send = async (text: string) => {
        const before = await page.locator(".msg-assistant .receipt").count();
        await page.locator("#composer-input").fill(text);
        await page.keyboard.press("Enter");
        await page.locator(".msg-assistant .receipt").nth(before).waitFor({ timeout: 15_000 });
        return page.locator(".msg-assistant").last();
      };

      const greeting = await send("Oi, tudo bem?");
      assert.equal(
        (await greeting.locator(".md").first().innerText()).trim(),
        smallTalkReply("greeting", "pt"),
      );
      assert.equal(
        await greeting.locator(".sources a.chip").count(),
        0,
        "small talk cites nothing",
      );

      const answer = await send(
        "Bom dia! Quanto tempo vocês guardam as minhas conversas? Obrigado",
      );
      assert.match(await answer.locator(".md").first().innerText(), /^“/, "the site is quoted");
      await answer.locator("a.cite").first().waitFor({ timeout: 5_000 });
      assert.ok(
        await answer.locator(".sources a.chip").count() > 0,
        "the answer shows its sources",
      );
      await page.screenshot({ path: `${dir}/chat-courtesy-1440-light.png` });
      // The list names the chat by the question, not by the greeting that opened it.
      await page.reload();
      assert.equal(
        (await page.locator(".chat-items li.current > a").innerText()).trim(),
        "Quanto tempo vocês guardam as minhas conversas",
      );
      await page.screenshot({ path: `${dir}/chat-courtesy-titled-1440-light.png` });
      assert.deepEqual(seen.errors, []);
      assert.deepEqual(seen.failed, []);
    } finally {
      await context.close();
      await browser.close();
      await server.close();
    }
  },
});
