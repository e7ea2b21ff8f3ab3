/**
 * The visitor's UI as a new visitor meets it: the model picker, copying an answer with its
 * sources, a stopped chat's title, earlier answers after regenerate, suggestions from the
 * site's own content, and the approval card. Screenshots for the README go to docs/screenshots/ with UPDATE_DOCS_SCREENSHOTS=1.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  DESKTOP,
  docsScreenshotDir,
  launchBrowser,
  viewContext,
  VIEWS,
  watchPage,
} from "../support/browser.ts";
import { testConfig } from "../support/chat_client.ts";
import { startReplayedApp, startTestServer } from "../support/server.ts";
import { docPages } from "@/lib/corpus/pages.ts";
import {
  ask,
  chatScript,
  openaiChatStream,
  openaiReplayEnv,
  openChat,
  runAxe,
  waitForAnswer,
} from "../support/ui.ts";

const E2E = { sanitizeOps: false, sanitizeResources: false };

/** The phone and desktop views, light and dark, at the 390 px of a common phone. */
const SHOT_VIEWS = VIEWS.map((v) => ({ ...v, width: v.width === 360 ? 390 : v.width }));

/** A context at one of `SHOT_VIEWS`, in `locale`. */
function shotContext(
  browser: Browser,
  view: (typeof SHOT_VIEWS)[number],
  locale = "pt-BR",
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: view.width, height: view.height },
    colorScheme: view.scheme,
    locale,
  });
}

/** Width of the picked option's label against the room the closed select gives it. */
function pickedLabelFits(page: Page): Promise<{ label: string; text: number; room: number }> {
  return page.locator("select.model-picker:not(.agent-picker)").evaluate((el) => {
    const select = el as HTMLSelectElement;
    const style = getComputedStyle(select);
    const probe = document.createElement("span");
    probe.style.font = style.font;
    probe.style.whiteSpace = "pre";
    probe.textContent = select.selectedOptions[0].text;
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    // The native arrow takes about 20 px of the content box.
    const room = select.clientWidth - parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight) - 20;
    return { label: select.selectedOptions[0].text, text, room };
  });
}

Deno.test({
  ...E2E,
  name:
    "e2e visitor: the model picker lists only usable models, says how many need a key, fits 390 px",
  async fn() {
    const offline = await startTestServer({ config: testConfig() });
    // The OpenAI key makes two more models usable; no request is sent since nothing is asked.
    const keyed = await startTestServer({
      env: openaiReplayEnv("http://127.0.0.1:9"),
      config: testConfig(),
    });
    const browser = await launchBrowser();
    try {
      for (const view of SHOT_VIEWS) {
        const context = await shotContext(browser, view);
        const page = await context.newPage();
        const seen = watchPage(page);

        // No key: only the offline model can answer, so there is nothing to pick.
        const loaded = page.waitForResponse((r) => r.url().endsWith("/api/models"));
        await openChat(page, offline.url + "/");
        await loaded;
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(done)));
        assert.equal(await page.locator("select.model-picker option[disabled]").count(), 0);
        assert.equal(await page.locator("select.model-picker:not(.agent-picker)").count(), 0);

        await openChat(page, keyed.url + "/");
        const picker = page.locator("select.model-picker:not(.agent-picker)");
        await picker.waitFor();
        const options = await picker.locator("option").evaluateAll((els) =>
          els.map((o) => ({ text: o.textContent, disabled: (o as HTMLOptionElement).disabled }))
        );
        assert.deepEqual(options, [
          { text: "GPT-5 mini (OpenAI)", disabled: false },
          { text: "GPT-4.1 mini (OpenAI)", disabled: false },
          { text: "Offline — cita o site, sem IA", disabled: false },
          { text: "mais 8 precisam de uma chave de API do dono do site", disabled: true },
        ]);
        await picker.selectOption("local");
        const fit = await pickedLabelFits(page);
        assert.ok(fit.text <= fit.room, `label cut at ${view.width} px: ${JSON.stringify(fit)}`);
        assert.equal(
          await page.evaluate(() => document.documentElement.scrollWidth > innerWidth),
          false,
        );
        await page.locator(".composer").screenshot({
          path: `${await docsScreenshotDir()}/model-picker-${view.width}-${view.scheme}.png`,
        });
        assert.deepEqual(seen.errors, []);
        await context.close();
      }
    } finally {
      await browser.close();
      await keyed.close();
      await offline.close();
    }
  },
});

Deno.test({
  ...E2E,
  name: "e2e visitor: copying an answer keeps its citations and its sources as links",
  async fn() {
    const server = await startTestServer({ config: testConfig() });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ locale: "pt-BR" });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: server.url,
      });
      const page = await context.newPage();
      const seen = watchPage(page);
      await openChat(page, server.url + "/");
      await ask(page, "Quais dados vocês guardam e por quanto tempo?");
      await waitForAnswer(page);
      const answer = page.locator(".msg-assistant").last();
      const links = await answer.locator("a.source-chip, .sources a").evaluateAll((els) =>
        els.map((a) => (a as HTMLAnchorElement).href)
      );
      assert.ok(links.length > 0, "the offline answer cites the site");
      await answer.getByRole("button", { name: "Copiar resposta" }).click();
      await answer.getByText("Copiado").waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(copied, /\[1\]/, "the citation numbers stay");
      const [, list = ""] = copied.split("\n\nFontes:\n");
      const listed = [...list.matchAll(/^\[(\d+)\] \[[^\]]+\]\((https?:[^)]+)\)$/gm)];
      assert.ok(listed.length > 0, `a sources list of markdown links: ${copied}`);
      for (const [, , url] of listed) {
        assert.ok(url.startsWith(server.url + "/"), `a link to the site's page: ${url}`);
      }
      assert.deepEqual(seen.errors, []);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  ...E2E,
  name: "e2e visitor: a chat stopped during its first answer is listed under a real title",
  async fn() {
    // The answer streams a few words, then stalls until the visitor stops it.
    const stalled = openaiChatStream("Guardamos o histórico das conversas por trinta dias.", 8);
    const app = await startReplayedApp(chatScript([{ body: stalled, stallAfterChunks: 3 }]));
    const browser = await launchBrowser();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      // The stop request is lost on the way (a flaky network), so the page cuts the stream
      // itself, as it does whenever the server's last chunk comes after the cut.
      await page.route("**/api/chat/*/stop", (route) => route.abort());
      await openChat(page, app.server.url + "/");
      await ask(page, "Quais dados vocês guardam e por quanto tempo?");
      await page.locator(".msg-assistant .md").getByText("Guardamos").waitFor();
      await page.getByRole("button", { name: "Parar" }).click();
      await page.locator(".thread[aria-busy=false]").waitFor();
      const chatId = await page.waitForFunction(() =>
        location.pathname.match(/^\/c\/([\w-]+)$/)?.[1]
      ).then((h) => h.jsonValue());
      const entry = page.locator(`#chat-list li[data-chat-id="${chatId}"] > a`);
      await entry.waitFor();
      // The title comes from /api/title: the model's ("Conversa de teste") or the question's.
      await page.waitForFunction(
        (id) =>
          document.querySelector(`#chat-list li[data-chat-id="${id}"] > a`)?.textContent !== "…",
        chatId,
        { timeout: 10_000 },
      );
      assert.match(await entry.innerText(), /Conversa de teste|Quais dados vocês guardam/);
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      assert.notEqual(await entry.innerText(), "…", "the saved title is a real one too");
      await context.close();
    } finally {
      await browser.close();
      await app.close();
    }
  },
});

Deno.test({
  ...E2E,
  name: "e2e visitor: regenerate keeps the earlier answer, shown as 1/2 ‹ ›, also after a reload",
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
      const firstId = await page.locator(".msg-assistant").last().getAttribute("id");
      await page.getByRole("button", { name: "Gerar de novo" }).click();
      await page.locator(`#${firstId}`).waitFor({ state: "detached" });
      await waitForAnswer(page);
      const secondId = await page.locator(".msg-assistant").last().getAttribute("id");
      assert.notEqual(secondId, firstId);

      const versions = page.getByRole("group", { name: "Versões desta resposta" });
      const check = async () => {
        assert.equal(await versions.innerText().then((s) => s.replace(/\s+/g, "")), "‹2/2›");
        await versions.getByRole("button", { name: "Resposta anterior" }).click();
        await page.locator(`#${firstId}`).waitFor();
        assert.match(await versions.innerText(), /1\/2/);
        assert.equal(await page.locator(".msg-assistant").count(), 1, "one answer at a time");
        assert.match(await page.locator(`#${firstId} .md`).innerText(), /\S/);
        await versions.getByRole("button", { name: "Próxima resposta" }).click();
        await page.locator(`#${secondId}`).waitFor();
      };
      await check();

      // The server kept it: a reload (or another device) shows both versions too.
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      await check();
      const chatId = new URL(page.url()).pathname.split("/").at(-1)!;
      const saved = await server.services.store.loadMessages(chatId);
      assert.deepEqual(saved.map((m) => m.role), ["user", "assistant"]);
      const earlier = (saved[1].metadata as { earlier?: { id: string }[] }).earlier;
      assert.deepEqual(earlier?.map((e) => `m-${e.id}`), [firstId]);
      assert.deepEqual(seen.errors, []);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

Deno.test({
  ...E2E,
  name:
    "e2e visitor: suggested questions are the site's own, in the visitor's language, and answered",
  async fn() {
    const server = await startTestServer({ config: testConfig() });
    const pages = await docPages.all();
    const browser = await launchBrowser();
    try {
      for (const locale of ["pt-BR", "en"] as const) {
        const context = await browser.newContext({ locale });
        const page = await context.newPage();
        const seen = watchPage(page);
        await openChat(page, server.url + "/");
        const shown = await page.locator(".suggestion").allInnerTexts();
        assert.equal(shown.length, 3);
        const lang = locale === "en" ? "en" : "pt";
        const headings = new Set(
          pages.filter((p) => p.lang === lang).flatMap((
            p,
          ) => [p.title, ...p.headings.map((h) => h.text)]),
        );
        for (const s of shown) assert.ok(headings.has(s), `"${s}" is on a ${lang} page`);
        assert.match(shown[0], /\?$/, "a question the site answers comes first");

        await page.locator(".suggestion").first().click();
        await waitForAnswer(page);
        const sources = page.locator(".msg-assistant").last().locator(".sources a");
        assert.ok(await sources.count() > 0, `"${shown[0]}" is answered from the site, cited`);
        assert.deepEqual(seen.errors, []);
        await context.close();
      }
    } finally {
      await browser.close();
      await server.close();
    }
  },
});

/** The contact request in each language, and what the card must show for it. */
const CARD_CASES = [{
  locale: "pt-BR",
  ask:
    "Manda um recado pro dono do site dizendo que adorei o site. Meu nome é Ana e meu email é ana@example.com",
  title: "Enviar a sua mensagem à equipe do site",
  labels: ["Seu nome", "Seu e-mail, para a resposta", "Mensagem"],
  details: "Detalhes técnicos",
  edit: "Editar",
}, {
  locale: "en",
  ask:
    "Send a message to the site owner saying I loved the site. My name is Ana and my email is ana@example.com",
  title: "Send your message to the site team",
  labels: ["Your name", "Your email, for the reply", "Message"],
  details: "Technical details",
  edit: "Edit",
}] as const;

Deno.test({
  ...E2E,
  name:
    "e2e visitor: the approval card says what will happen, with localised fields; the request is behind details, no internal ids",
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    try {
      for (const c of CARD_CASES) {
        for (const view of SHOT_VIEWS) {
          const context = await shotContext(browser, view, c.locale);
          const page = await context.newPage();
          const seen = watchPage(page);
          await openChat(page, server.url + "/");
          await ask(page, c.ask);
          const card = page.locator(".approval-card[data-approval-state=approval-requested]");
          await card.waitFor({ timeout: 20_000 });
          await page.locator(".thread[aria-busy=false]").waitFor();
          const chatId = new URL(page.url()).pathname.split("/").at(-1)!;

          assert.equal(await card.locator(".approval-title").innerText(), c.title);
          assert.deepEqual(await card.locator(".approval-values dt").allInnerTexts(), c.labels);
          const values = await card.locator(".approval-values dd").allInnerTexts();
          assert.equal(values[0], "Ana");
          assert.equal(values[1], "ana@example.com");
          const all = await card.evaluate((el) => el.textContent ?? "");
          assert.ok(!all.includes(chatId), "no chat id anywhere in the card");
          assert.doesNotMatch(all, /sendMessageToOwner|visitorId|"visitor"/, "no internal names");
          assert.doesNotMatch(all, /The visitor's name|as they gave it/, "no hints for the model");

          // The exact request is one click away, closed at first.
          const details = card.locator("details.approval-details");
          assert.equal(await details.getAttribute("open"), null);
          assert.equal(await card.locator(".approval-method").isVisible(), false);
          await card.locator(".approval-title").scrollIntoViewIfNeeded();
          await card.screenshot({
            path:
              `${await docsScreenshotDir()}/approval-card-${c.locale}-${view.width}-${view.scheme}.png`,
          });
          await details.locator("summary").getByText(c.details).click();
          assert.equal(await card.locator(".approval-method").innerText(), "POST");
          assert.match(
            await card.locator(".approval-body").innerText(),
            /"email": "ana@example.com"/,
          );
          const serious = (await runAxe(page)).filter((v) =>
            v.impact === "serious" || v.impact === "critical"
          );
          assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes.join(", ")}`), []);

          // Editing: the e-mail is an e-mail input, the message a text area, each labelled.
          await card.getByRole("button", { name: c.edit, exact: true }).click();
          const email = card.getByLabel(new RegExp(`^${c.labels[1]}`));
          assert.equal(await email.getAttribute("type"), "email");
          assert.equal(await email.inputValue(), "ana@example.com");
          const message = card.getByLabel(new RegExp(`^${c.labels[2]}`));
          assert.equal(await message.evaluate((el) => el.tagName), "TEXTAREA");
          assert.equal(await card.locator("legend").count(), 0, "no 'body' legend");
          const editSerious = (await runAxe(page)).filter((v) =>
            v.impact === "serious" || v.impact === "critical"
          );
          assert.deepEqual(editSerious.map((v) => v.id), []);
          assert.deepEqual(seen.errors, []);
          await context.close();
        }
      }
      assert.equal((await server.services.contact.list()).messages.length, 0, "nothing sent");
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
