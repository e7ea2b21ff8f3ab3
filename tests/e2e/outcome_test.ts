import assert from "node:assert/strict";
import {
  DESKTOP,
  launchBrowser,
  screenshotDir,
  viewContext,
  watchPage,
} from "../support/browser.ts";
import { startReplayedApp } from "../support/server.ts";
import { ask, chatScript, openaiChatStream, openChat, waitForAnswer } from "../support/ui.ts";

const CUT = "Esta resposta começa bem, mas a conexão com o provedor cai no meio dela.";
const WHOLE = "Agora a resposta chega inteira.";

Deno.test({
  name: "e2e: an answer cut off by the provider reloads as failed, and Retry replaces it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { server, close } = await startReplayedApp(chatScript([
      { body: openaiChatStream(CUT, 6), failAfterChunks: 5 },
      { body: openaiChatStream(WHOLE) },
    ]));
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);
      await openChat(page, server.url + "/");
      await ask(page, "Como funciona?");
      await page.locator(".error-banner").waitFor({ timeout: 20_000 });
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      const note = page.locator(".msg-assistant .outcome-failed");
      await note.waitFor();
      assert.ok(
        (await page.locator(".msg-assistant .md").innerText()).length > 0,
        "the partial text is kept",
      );
      await page.screenshot({ path: `${dir}/outcome-failed-1440-light.png` });
      await note.getByRole("button").click();
      await waitForAnswer(page);
      assert.equal(
        await page.locator(".msg-assistant").count(),
        1,
        "the failed answer was replaced",
      );
      assert.equal((await page.locator(".msg-assistant .md").innerText()).trim(), WHOLE);
      assert.equal(await page.locator(".msg-assistant .outcome-failed").count(), 0);
      // Seen errors: the failed stream itself is reported by the page, nothing else.
      assert.ok(
        seen.errors.every((e) => /stream|fetch|network|502|answer/i.test(e)),
        seen.errors.join("\n"),
      );
    } finally {
      await browser.close();
      await close();
    }
  },
});
