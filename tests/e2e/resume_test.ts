/**
 * Resumable answers in Chromium (issue 13): a reload mid-answer continues it without
 * repeating text, a stop from a second tab stops the first tab's answer, and an answer
 * whose producing process was killed shows as cut off with Retry, never a spinner forever.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { createModelRegistry } from "@/lib/models/registry.ts";
import {
  DESKTOP,
  launchBrowser,
  screenshotDir,
  viewContext,
  watchPage,
} from "../support/browser.ts";
import { type AppProcess, spawnAppProcess } from "../support/app_process.ts";
import { startReplayedApp, startTestServer } from "../support/server.ts";
import { ask, chatScript, openaiChatStream, openChat, waitForAnswer } from "../support/ui.ts";

const QUESTION = "Como faço para publicar o assistente no meu site?";

/** The text of a saved message: its text parts, joined. */
function savedText(message: ChatMessage | undefined): string {
  return (message?.parts ?? []).flatMap((p) => p.type === "text" ? [p.text] : []).join("");
}

/** The chat id of the next POST /api/chat `page` sends (the island picks it). */
async function nextChatId(page: Page, send: () => Promise<void>): Promise<string> {
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/chat"),
    send(),
  ]);
  return (request.postDataJSON() as { id: string }).id;
}

/** Waits until the last answer on `page` shows at least `words` words. */
async function waitForWords(page: Page, words: number): Promise<string> {
  const md = page.locator(".msg-assistant").last().locator(".md");
  await page.waitForFunction(
    ([sel, n]) => {
      const els = document.querySelectorAll<HTMLElement>(sel as string);
      const text = els[els.length - 1]?.innerText ?? "";
      return text.split(/\s+/).filter(Boolean).length >= (n as number);
    },
    [".msg-assistant .md", words] as const,
    { timeout: 20_000 },
  );
  return await md.innerText();
}

/** Words that appear twice in a row ("o o"): the sign of a replayed chunk. */
function doubledWords(text: string): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  return words.filter((w, i) => i > 0 && w.length > 3 && w === words[i - 1]);
}

Deno.test({
  name: "e2e resume: a reload mid-answer continues it once; a stop from another tab stops it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // Offline answers are 20–40 words: 200 ms a word leaves the time to reload or stop mid-answer.
    const server = await startTestServer({
      services: { models: createModelRegistry({ env: {}, local: { delayMs: 200 } }) },
    });
    const browser = await launchBrowser();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await openChat(page, server.url + "/");

      // 1. Reload in the middle of a long answer.
      const id = await nextChatId(page, () => ask(page, QUESTION));
      const before = await waitForWords(page, 5);
      assert.equal(new URL(page.url()).pathname, `/c/${id}`, "the URL names the chat mid-answer");
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      try {
        await waitForAnswer(page, 15_000);
      } catch (e) {
        console.log(await page.locator(".thread").evaluate((el) => el.outerHTML));
        console.log(JSON.stringify(await server.services.store.loadMessages(id)));
        throw e;
      }
      const shown = await page.locator(".msg-assistant .md").last().innerText();
      assert.ok(shown.length > before.length, `the answer went on: ${before} / ${shown}`);
      const saved = await server.services.store.loadMessages(id) as ChatMessage[];
      assert.equal(saved.length, 2);
      assert.equal(saved[1].metadata?.outcome, "finished");
      assert.deepEqual(doubledWords(shown), [], "no text repeated");
      // What the resumed stream built is what the server renders from the saved answer.
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      assert.equal(await page.locator(".msg-assistant .md").last().innerText(), shown);
      // The same words as saved, once each (citation markers render as bare numbers).
      const plain = (text: string) => text.replace(/\[(\d+)\]/g, "$1").replace(/\s+/g, " ").trim();
      assert.equal(plain(shown), plain(savedText(saved[1])));
      assert.equal(await page.locator(".msg-assistant").count(), 1);

      // 2. Stop from a second tab of the same visitor.
      const tabA = await context.newPage();
      await openChat(tabA, server.url + "/");
      const second = await nextChatId(tabA, () => ask(tabA, "Quais dados vocês guardam?"));
      await waitForWords(tabA, 3);
      const tabB = await context.newPage();
      await openChat(tabB, `${server.url}/c/${second}`);
      await waitForWords(tabB, 5); // B follows the answer
      await tabB.locator("#composer-input").focus();
      await tabB.keyboard.press("Escape");
      await tabA.locator(".msg-assistant .interrupted").waitFor({ timeout: 10_000 });
      await tabB.locator(".msg-assistant .interrupted").waitFor({ timeout: 10_000 });
      await tabA.locator(".thread[aria-busy=false]").waitFor({ timeout: 10_000 });
      const stopped = await server.services.store.loadMessages(second) as ChatMessage[];
      assert.equal(stopped.at(-1)?.metadata?.outcome, "stopped");
      const shownA = await tabA.locator(".msg-assistant .md").last().innerText();
      assert.ok(shownA.length > 0);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "e2e resume: an answer whose process was killed shows cut off with Retry, and Retry works",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const children: AppProcess[] = [];
    const spawn = async () => {
      const app = await spawnAppProcess(`${dir}/kv.sqlite`, { LOCAL_MODEL_DELAY_MS: "60" });
      children.push(app);
      return app;
    };
    const browser = await launchBrowser();
    const shots = await screenshotDir();
    try {
      const first = await spawn();
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      await openChat(page, first.url + "/");
      const id = await nextChatId(page, () => ask(page, QUESTION));
      await waitForWords(page, 5);
      // Nobody follows this answer, so its log is written every 250 ms: what came before the
      // last tick is in the log; then the process dies without a word.
      await new Promise((r) => setTimeout(r, 300));
      await first.kill();

      const second = await spawn();
      const started = Date.now();
      await openChat(page, `${second.url}/c/${id}`);
      const last = page.locator(".msg-assistant").last();
      // The cut-off note of the answer itself, with its Retry (not a failed-request banner).
      const retry = last.locator(".interrupted.outcome-interrupted button");
      // Bounded: the follower gives up once the dead producer's heartbeat is 15 s old.
      await retry.waitFor({ timeout: 30_000 });
      await page.locator(".thread[aria-busy=false]").waitFor({ timeout: 5_000 });
      const waited = Date.now() - started;
      console.log(`Cut-off answer shown with Retry after ${waited} ms`);
      assert.ok((await last.locator(".md").innerText()).length > 0, "the partial answer is kept");
      assert.equal(await page.locator(".error-banner").count(), 0);
      await page.screenshot({ path: `${shots}/resume-interrupted-1440-light.png` });

      await retry.click();
      await waitForAnswer(page, 30_000);
      const saved = await (await context.request.get(`${second.url}/api/chats/${id}`)).json() as {
        messages: ChatMessage[];
      };
      assert.equal(saved.messages.at(-1)?.metadata?.outcome, "finished");
      assert.equal(saved.messages.filter((m) => m.role === "assistant").length, 1);
      assert.equal(await page.locator(".msg-assistant").count(), 1);
      assert.equal(await page.locator(".msg-assistant .interrupted").count(), 0);
    } finally {
      await browser.close();
      for (const app of children) await app.kill();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "e2e resume: a tab opened before the first token shows the answer coming, then the answer",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const LATE = "Esta resposta chegou depois de o provedor pensar por alguns segundos.";
    // The second question's provider takes 3 s to answer at all.
    const { server, close } = await startReplayedApp(chatScript([
      { body: openaiChatStream("Primeira resposta.") },
      { body: openaiChatStream(LATE), headersDelayMs: 3_000 },
    ]));
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      const context = await viewContext(browser, DESKTOP);
      const tabA = await context.newPage();
      const seen = watchPage(tabA);
      await openChat(tabA, server.url + "/");
      await ask(tabA, "Oi");
      await waitForAnswer(tabA);
      await openChat(tabA, server.url + "/");
      const id = await nextChatId(tabA, () => ask(tabA, "Como funciona?"));
      // Tab B opens the chat while the provider has not answered yet.
      const tabB = await context.newPage();
      await openChat(tabB, `${server.url}/c/${id}`);
      await tabB.locator(".thread[aria-busy=true]").waitFor({ timeout: 2_000 });
      // The question is saved; the answer is a placeholder, shown as coming, not as cut off.
      assert.equal((await server.services.store.loadMessages(id)).length, 2);
      assert.equal(await tabB.locator(".msg-assistant .outcome-failed").count(), 0);
      await tabB.screenshot({ path: `${dir}/resume-before-first-token-1440-light.png` });
      for (const tab of [tabA, tabB]) {
        await waitForAnswer(tab, 15_000);
        assert.equal((await tab.locator(".msg-assistant .md").last().innerText()).trim(), LATE);
        assert.equal(await tab.locator(".msg-assistant .interrupted").count(), 0);
      }
      assert.deepEqual(seen.errors, []);
    } finally {
      await browser.close();
      await close();
    }
  },
});
