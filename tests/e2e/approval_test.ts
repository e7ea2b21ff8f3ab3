/**
 * The approval card in Chromium: the offline model proposes the contact call from the
 * visitor's words; the card shows the exact POST; approve sends it exactly once, deny
 * tells the model, edit sends the edited request, a reload while pending brings the card
 * back; a browser-run agent's request leaves from the page to a loopback API. Screenshots
 * of the card at 360 and 1440 px, light and dark.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createScriptedModel } from "@/lib/models/testing.ts";
import {
  DESKTOP,
  forEachView,
  launchBrowser,
  screenshotDir,
  viewContext,
  watchPage,
} from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { startSpyAgentApp } from "../support/agent_app.ts";
import { ask, openChat, runAxe, waitForAnswer } from "../support/ui.ts";

const RECADO =
  "Manda um recado pro dono do site dizendo que adorei o site. Meu nome é Ana e meu email é ana@example.com";

/** Asks for the contact message and waits for the card. */
async function cardFor(page: Page, url: string) {
  await openChat(page, url + "/");
  await ask(page, RECADO);
  const card = page.locator(".approval-card[data-approval-state=approval-requested]");
  await card.waitFor({ timeout: 20_000 });
  await page.locator(".thread[aria-busy=false]").waitFor();
  return card;
}

Deno.test({
  name: "e2e approval: the card shows the exact request at every view; a reload brings it back",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      await forEachView(browser, async ({ view, page, seen }) => {
        const card = await cardFor(page, server.url);
        // The exact request is in the card, behind "Detalhes técnicos".
        assert.equal(await card.locator(".approval-method").textContent(), "POST");
        assert.match((await card.locator(".approval-url").textContent()) ?? "", /\/api\/contact$/);
        assert.match((await card.locator(".approval-body").textContent()) ?? "", /"name": "Ana"/);
        await card.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${dir}/approval-card-${view.width}-${view.scheme}.png` });
        if (view.width === 1440 && view.scheme === "light") {
          await page.reload();
          await page.locator(".approval-card[data-approval-state=approval-requested]").waitFor();
        }
        // Keyboard and screen readers: the card takes focus, and axe finds nothing serious.
        assert.equal(
          await page.evaluate(() => document.activeElement?.closest(".approval-card") !== null),
          true,
          "focus moved to the card",
        );
        const serious = (await runAxe(page)).filter((v) =>
          v.impact === "serious" || v.impact === "critical"
        );
        assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes.join(", ")}`), []);
        assert.deepEqual(seen.errors, []);
      });
      assert.equal((await server.services.contact.list()).messages.length, 0, "nothing sent");
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "e2e approval: approve sends once, deny tells the model, edit sends the edited request",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);

      // Approve: sent exactly once, and the answer says so.
      let card = await cardFor(page, server.url);
      await card.getByRole("button", { name: /Aprovar/ }).click();
      await page.locator(".approval-card[data-approval-state=output-available]").waitFor({
        timeout: 20_000,
      });
      await page.locator(".msg-assistant .md").getByText(/Recado enviado/).waitFor();
      assert.equal((await server.services.contact.list()).messages.length, 1);

      // Deny with a reason: nothing sent, the model answers accordingly.
      card = await cardFor(page, server.url);
      await card.getByRole("button", { name: /Recusar/ }).click();
      await card.locator("textarea").fill("não quero mais");
      await card.locator(".button-danger").click();
      await page.locator(".msg-assistant .md").getByText(/não foi enviado.*não quero mais/).waitFor(
        {
          timeout: 20_000,
        },
      );
      assert.equal((await server.services.contact.list()).messages.length, 1);

      // Edit, review the rebuilt request, approve: the edited request is what arrives.
      const posted: string[] = [];
      page.on("request", (r) => r.url().endsWith("/api/chat") && posted.push(r.postData() ?? ""));
      card = await cardFor(page, server.url);
      await card.getByRole("button", { name: /Editar/ }).click();
      // The edit form takes focus on its first field before anything is typed.
      await card.locator(".approval-form input:focus").waitFor();
      // The message field, by its label (the spec's x-visitor label in the page's language).
      const message = card.getByLabel(/^Mensagem/);
      await message.fill("Mensagem editada no cartão");
      await card.locator(".approval-form button[type=submit]").click();
      await card.locator(".approval-edited").waitFor();
      assert.match(
        (await card.locator(".approval-body").textContent()) ?? "",
        /"message": "Mensagem editada no cartão"/,
      );
      await card.getByRole("button", { name: /Aprovar/ }).click();
      await page.locator(".msg-assistant .md").getByText(/Recado enviado/).waitFor({
        timeout: 20_000,
      });
      const sent = (await server.services.contact.list()).messages;
      assert.deepEqual(
        sent.map((m) => m.message).sort(),
        ["Adorei o site", "Mensagem editada no cartão"],
        `the approved request, then the edited one, each sent once; posted: ${posted.join(" || ")}`,
      );
      await waitForAnswer(page);
      assert.deepEqual(seen.errors, []);
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  name: "e2e approval: a browser-run agent's request leaves from the page, once, after approval",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const model = createScriptedModel([
      { type: "tool-call", toolName: "sendMessage", input: { body: { text: "Olá do navegador" } } },
      { type: "text", text: "Pronto, a mensagem saiu do seu navegador." },
    ]);
    const app = await startSpyAgentApp(model, { runIn: "browser" });
    const browser = await launchBrowser();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);
      await openChat(page, app.server.url + "/");
      await ask(page, "Mande um olá para a equipe");
      const card = page.locator(".approval-card[data-approval-state=approval-requested]");
      await card.waitFor({ timeout: 20_000 });
      await page.locator(".thread[aria-busy=false]").waitFor();
      assert.equal(app.received.length, 0, "nothing before approval");
      await card.getByRole("button", { name: /Aprovar/ }).click();
      // In the answer: the sidebar's title may quote the model too.
      await page.locator(".approval-card[data-approval-state=output-available]").waitFor({
        timeout: 20_000,
      });
      await page.locator(".msg-assistant .md").getByText(/a mensagem saiu do seu navegador/)
        .waitFor({ timeout: 20_000 });
      const posts = app.received.filter((r) => r.method === "POST");
      const chatId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
      const saved = await app.server.services.store.loadMessages(chatId);
      assert.equal(
        posts.length,
        1,
        `page errors: ${seen.errors.join(" | ")}; saved: ${
          JSON.stringify(saved.at(-1)?.parts).slice(0, 3000)
        }`,
      );
      assert.deepEqual(JSON.parse(posts[0].body), { text: "Olá do navegador" });
    } finally {
      await browser.close();
      await app.close();
    }
  },
});
