/**
 * Answer actions in the browser: regenerate and edit-and-resend (saved by the
 * server), Retry after a provider failure, and a remote image in an answer that
 * is shown as a link and never requested.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { DESKTOP, launchBrowser, viewContext, watchPage } from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { startReplayServer } from "../support/replay_server.ts";
import { messageText, testConfig } from "../support/chat_client.ts";
import {
  ask,
  chatCompletionsPieces,
  chatScript,
  openaiChatStream,
  openaiReplayEnv,
  openChat,
  shownMessages,
  startSpyServer,
  streamedCalls,
  waitForAnswer,
} from "../support/ui.ts";

const E2E = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  ...E2E,
  name: "e2e ui: regenerate replaces the last answer; edit-and-resend replaces question and answer",
  async fn() {
    const server = await startTestServer({ config: testConfig() });
    const browser = await launchBrowser();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);
      await openChat(page, server.url + "/");
      await ask(page, "Quais dados vocês guardam e por quanto tempo?");
      await waitForAnswer(page);
      const first = await shownMessages(page);
      assert.deepEqual(first.map((m) => m.role), ["user", "assistant"]);

      // Regenerate: the answer is replaced by a new one (new id), still one answer.
      await page.getByRole("button", { name: "Gerar de novo" }).click();
      await page.locator(`#m-${first[1].id}`).waitFor({ state: "detached" });
      await waitForAnswer(page);
      const regenerated = await shownMessages(page);
      assert.deepEqual(regenerated.map((m) => m.role), ["user", "assistant"]);
      assert.equal(regenerated[0].id, first[0].id, "the question stays");
      assert.notEqual(regenerated[1].id, first[1].id, "a new answer replaced the old one");
      assert.match(regenerated[1].text, /\S/);

      // Edit the question and send it again: the thread shows the edited question and a new answer.
      const edited = "Como faço para publicar o assistente no meu site?";
      await page.getByRole("button", { name: "Editar pergunta" }).click();
      const editor = page.locator("#edit-input");
      await editor.waitFor();
      assert.equal(await editor.inputValue(), "Quais dados vocês guardam e por quanto tempo?");
      await editor.fill(edited);
      await page.getByRole("button", { name: "Enviar de novo" }).click();
      await page.locator(`#m-${regenerated[1].id}`).waitFor({ state: "detached" });
      await waitForAnswer(page);
      const after = await shownMessages(page);
      assert.deepEqual(after.map((m) => m.role), ["user", "assistant"]);
      assert.equal(after[0].text, edited);
      assert.notEqual(after[1].id, regenerated[1].id);
      assert.notEqual(after[1].text, regenerated[1].text, "the answer is for the new question");
      assert.equal(await page.locator("#edit-input").count(), 0, "the editor closed");

      // Reload: the server saved exactly this.
      const chatId = page.url().match(/\/c\/([A-Za-z0-9_-]+)$/)?.[1];
      assert.ok(chatId, page.url());
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      assert.deepEqual(await shownMessages(page), after);
      const saved = await server.services.store.loadMessages(chatId) as ChatMessage[];
      assert.deepEqual(saved.map((m) => [m.id, m.role]), after.map((m) => [m.id, m.role]));
      assert.equal(messageText(saved[0]), edited);
      assert.deepEqual(seen.errors, []);
      assert.deepEqual(seen.failed, []);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  ...E2E,
  name: "e2e ui: a provider that fails once (500, 429) → error banner, Retry streams the answer",
  async fn() {
    const pieces = await chatCompletionsPieces("openai-text.chunks.txt");
    const expectedStart = pieces.join("").replace(/\*\*/g, "").slice(0, 40).trim();
    const browser = await launchBrowser();
    try {
      for (const status of [500, 429]) {
        const replay = startReplayServer(chatScript([
          { fixture: "openai-error.1.json", status },
          { fixture: "openai-text.chunks.txt" },
        ]));
        const server = await startTestServer({
          env: openaiReplayEnv(replay.url),
          config: testConfig(),
        });
        const context = await viewContext(browser, DESKTOP);
        try {
          const page = await context.newPage();
          const seen = watchPage(page);
          await openChat(page, server.url + "/");
          await ask(page, "Olá, quem é você?");
          const banner = page.locator(".error-banner[role=alert]");
          await banner.waitFor({ timeout: 10_000 });
          assert.match(await banner.innerText(), /Não foi possível obter a resposta/);
          assert.equal(await page.locator(".msg-assistant").count(), 0);
          assert.equal(await page.locator(".msg-user").count(), 1, "the question stays shown");
          await page.waitForTimeout(200);
          assert.equal(new URL(page.url()).pathname, "/", "no URL for a chat that was not saved");
          assert.equal(await page.locator(".chat-items li").count(), 0, "no list entry either");

          await banner.getByRole("button", { name: "Tentar de novo" }).click();
          await waitForAnswer(page);
          assert.equal(await banner.count(), 0, "the banner is gone");
          const shown = await shownMessages(page);
          assert.deepEqual(shown.map((m) => m.role), ["user", "assistant"]);
          assert.ok(
            shown[1].text.replace(/\s+/g, " ").startsWith(expectedStart.replace(/\s+/g, " ")),
            `the replayed answer is shown: ${shown[1].text.slice(0, 80)}`,
          );
          assert.equal(streamedCalls(replay.requests), 2, "one failed call, one retried call");

          await page.reload();
          await page.waitForSelector(".conversation[data-hydrated=true]");
          assert.deepEqual(
            (await shownMessages(page)).map((m) => [m.id, m.role]),
            shown.map((m) => [m.id, m.role]),
            "one question and one answer saved",
          );
          assert.deepEqual(seen.errors.filter((e) => !/502/.test(e)), []);
          assert.deepEqual(
            seen.failed.filter((f) => !/\/api\/chat 502$/.test(f)),
            [],
            "only the failed turn failed",
          );
        } finally {
          await context.close();
          await server.close();
          await replay.close();
        }
      }
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  ...E2E,
  name: "e2e ui: a remote image in an answer is a link and is never requested",
  async fn() {
    const spy = startSpyServer();
    const imageUrl = `${spy.url}/leak.png?c=secret`;
    const replay = startReplayServer(chatScript([{
      body: openaiChatStream(`Aqui está o gráfico:\n\n![chart](${imageUrl})\n\nEspero que ajude.`),
    }]));
    const server = await startTestServer({
      env: openaiReplayEnv(replay.url),
      config: testConfig(),
    });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ locale: "pt-BR" });
      const page = await context.newPage();
      const seen = watchPage(page);
      const requested: string[] = [];
      page.on("request", (req) => requested.push(req.url()));
      await openChat(page, server.url + "/");
      await ask(page, "Mostre um gráfico");
      await waitForAnswer(page);
      const link = page.locator(".msg-assistant .md a.image-link");
      await link.waitFor();
      assert.equal(await link.getAttribute("href"), imageUrl);
      assert.match(await link.innerText(), /chart/);
      assert.equal(await page.locator(".msg-assistant img").count(), 0, "no <img> in the answer");

      // The server-rendered copy after a reload does the same.
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      assert.equal(await page.locator(".msg-assistant .md a.image-link").count(), 1);
      await page.waitForTimeout(300);
      assert.deepEqual(spy.hits, [], "the spy server saw no request");
      assert.deepEqual(requested.filter((u) => u.startsWith(spy.url)), []);
      assert.deepEqual(seen.errors, []);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
      await replay.close();
      await spy.close();
    }
  },
});
