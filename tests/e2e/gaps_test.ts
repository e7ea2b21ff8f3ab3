/**
 * /admin/gaps in Chromium: grouped unanswered questions at 390 and 1440 px without sideways
 * scrolling, and the owner answering a group through the page's own form, another with a page
 * of the site named by its title, and a third with one of the pages the search found for it; the
 * next visitor asking the same questions is answered from them. A long list is paged. Screenshots
 * in docs/screenshots/ with UPDATE_DOCS_SCREENSHOTS=1.
 */
import assert from "node:assert/strict";
import {
  docsScreenshotDir,
  hasHorizontalScroll,
  launchBrowser,
  screenshotDir,
} from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { runAxe } from "../support/ui.ts";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  streamedText,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { type GapRecord, recordGap } from "@/lib/store/gaps.ts";
import { madeUpWord } from "../support/made_up.ts";

const E2E = { sanitizeOps: false, sanitizeResources: false };
const ADMIN_TOKEN = "admin-token-gaps-e2e-0123456789abcdef";

/** Gaps as visitors leave them: alike questions, another language, each reason. */
const SEEDED: Array<Omit<GapRecord, "at" | "chatId">> = [
  { question: "Vocês entregam em Portugal?", reason: "not-covered", lang: "pt" },
  { question: "Qual o horário de atendimento?", reason: "thumbs-down", lang: "pt" },
  { question: "Do you ship to Portugal?", reason: "not-covered", lang: "en" },
  { question: "Qual é o horário de atendimento da loja?", reason: "stopped", lang: "pt" },
  { question: "Vocês entregam para Portugal?", reason: "not-covered", lang: "pt" },
  { question: "Qual o horário de atendimento aos sábados?", reason: "not-covered", lang: "pt" },
  {
    question: "Vocês ficam com meu histórico pra sempre?",
    reason: "related",
    lang: "pt",
    followed: "Por quanto tempo as minhas conversas ficam guardadas?",
  },
  { question: "Vocês guardam o que eu escrevo?", reason: "thumbs-down", lang: "pt" },
];

Deno.test({
  ...E2E,
  name: "e2e gaps: /admin/gaps at 390 and 1440 px, the owner answers a group, then it is cited",
  async fn() {
    const kv = await Deno.openKv(":memory:");
    const now = Date.now();
    for (const [i, gap] of SEEDED.entries()) {
      await recordGap(kv, { ...gap, at: now - (SEEDED.length - i) * 60_000, chatId: newChatId() });
    }
    const server = await startTestServer({ kv, env: { ADMIN_TOKEN }, config: testConfig() });
    const browser = await launchBrowser();
    try {
      for (const width of [390, 1440]) {
        const ctx = await browser.newContext({
          viewport: { width, height: 900 },
          locale: "pt-BR",
          extraHTTPHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        const page = await ctx.newPage();
        const res = await page.goto(server.url + "/admin/gaps");
        assert.equal(res?.status(), 200);
        assert.equal(await page.locator(".gap-group").count(), 5);
        assert.equal(await hasHorizontalScroll(page), false, `sideways scrolling at ${width} px`);
        // The pages the search found, listed to pick from, fit the narrow screen too.
        const rated = page.locator(".gap-group").filter({ hasText: "o que eu escrevo" });
        await rated.locator("summary", { hasText: "Responder com uma página" }).click();
        assert.ok((await rated.locator("input[name=pageId]").count()) >= 2);
        assert.equal(await hasHorizontalScroll(page), false, `sideways scrolling at ${width} px`);
        const axe = await runAxe(page);
        assert.deepEqual(axe, [], JSON.stringify(axe, null, 2));
        await rated.locator(".gap-pages").screenshot({
          path: `${await screenshotDir()}/admin-gaps-candidates-${width}.png`,
        });
        await page.locator(".gap-group summary").first().click();
        // From the top: scrolled, the sticky header would be drawn mid-page in a full-page shot.
        await page.evaluate(() => globalThis.scrollTo(0, 0));
        await page.screenshot({
          path: `${await docsScreenshotDir()}/admin-gaps-${width}.png`,
          fullPage: true,
        });
        await ctx.close();
      }

      const ctx = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale: "pt-BR",
        extraHTTPHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const page = await ctx.newPage();
      await page.goto(server.url + "/admin/gaps");
      const group = page.locator(".gap-group").filter({ hasText: "horário de atendimento" });
      assert.match(await group.textContent() ?? "", /Vezes: 3/);
      await group.locator("summary").first().click();
      await group.locator("textarea[name=answer]").fill(
        "O atendimento funciona de segunda a sexta, das 9h às 18h, e aos sábados das 9h às 13h.",
      );
      await group.locator("form:has(textarea) button[type=submit]").click();
      await page.locator("[role=status]").waitFor();
      assert.equal(await page.locator(".gap-answer").count(), 1);

      // A wording visitors went on from to a related question: answered with that page.
      const went = page.locator(".gap-group").filter({ hasText: "histórico pra sempre" });
      // Open at once: the question they went on to fills the page field.
      const pageField = went.locator("input[name=page]");
      assert.ok(await pageField.isVisible(), "the form to answer with a page is open");
      assert.equal(
        await pageField.inputValue(),
        "Por quanto tempo as minhas conversas ficam guardadas?",
        "filled with the question they went on to",
      );
      await went.locator("form:has(input[name=page]) button[type=submit]").click();
      await page.locator("[role=status]").waitFor();

      // A wording rated down: the owner picks the right page among those the search found.
      const rated = page.locator(".gap-group").filter({ hasText: "o que eu escrevo" });
      await rated.locator("summary", { hasText: "Responder com uma página" }).click();
      const choice = rated.locator(".gap-page", {
        hasText: "Por quanto tempo as minhas conversas",
      });
      await choice.locator("input[type=radio]").check();
      await rated.screenshot({ path: `${await screenshotDir()}/admin-gaps-candidates-1440.png` });
      await rated.locator("form:has(input[name=pageId]) button[type=submit]").click();
      await page.locator("[role=status]").waitFor();
      const pointed = page.locator(".gap-answer").filter({ hasText: "histórico pra sempre" });
      assert.match(await pointed.textContent() ?? "", /Respondida com: .*Por quanto tempo/);
      await pointed.screenshot({ path: `${await screenshotDir()}/admin-gaps-pointed-1440.png` });
      const picked = page.locator(".gap-answer").filter({ hasText: "o que eu escrevo" });
      assert.match(await picked.textContent() ?? "", /Respondida com: .*Por quanto tempo/);
      // The three answered groups leave the open list for "Já respondidas", each naming its answer.
      assert.equal(await page.locator("#answered .gap-group").count(), 3);
      assert.equal(await page.locator(".gap-group").count(), 5);
      assert.equal(
        await page.locator("#answered .gap-group", { hasText: "Respondida por" }).count(),
        3,
      );
      await page.locator("#answered").screenshot({
        path: `${await screenshotDir()}/admin-gaps-answered-1440.png`,
      });
      await ctx.close();

      const ask = await postChat(server.url, {
        id: newChatId(),
        message: userMessage("Qual o horário de atendimento aos sábados?"),
      }, { jar: new CookieJar() });
      const { chunks } = await readSse(ask);
      const text = streamedText(chunks);
      assert.match(text, /9h às 13h/, text);
      assert.ok(chunks.some((c) => c.type === "source-url" && c.url.includes("/respostas/")));

      const history = await postChat(server.url, {
        id: newChatId(),
        message: userMessage("Vocês ficam com meu histórico pra sempre?"),
      }, { jar: new CookieJar() });
      const first = (await readSse(history)).chunks.find((c) => c.type === "source-url");
      assert.ok(first?.type === "source-url" && first.url.endsWith("-ficam-guardadas"), first?.url);

      const written = await postChat(server.url, {
        id: newChatId(),
        message: userMessage("Vocês guardam o que eu escrevo?"),
      }, { jar: new CookieJar() });
      const cited = (await readSse(written)).chunks.find((c) => c.type === "source-url");
      assert.ok(cited?.type === "source-url" && cited.url.endsWith("-ficam-guardadas"), cited?.url);
    } finally {
      await browser.close();
      await server.close();
      kv.close();
    }
  },
});

Deno.test({
  ...E2E,
  name:
    "e2e gaps: a long list is paged; the owner pages, dismisses a group and restores it at 390 px",
  async fn() {
    const kv = await Deno.openKv(":memory:");
    for (let n = 0; n < 40; n++) {
      const question = `${madeUpWord(n, "z")} ${madeUpWord(n, "q")} ${madeUpWord(n, "v")}?`;
      await recordGap(kv, {
        at: 1_000 + n,
        chatId: newChatId(),
        question,
        reason: "not-covered",
        lang: "pt",
      });
    }
    const server = await startTestServer({ kv, env: { ADMIN_TOKEN }, config: testConfig() });
    const browser = await launchBrowser();
    try {
      const ctx = await browser.newContext({
        viewport: { width: 390, height: 900 },
        locale: "pt-BR",
        extraHTTPHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const page = await ctx.newPage();
      await page.goto(server.url + "/admin/gaps");
      assert.equal(await page.locator(".gap-group").count(), 30);
      const pager = page.getByRole("navigation", { name: "Perguntas sem resposta" });
      assert.equal(await pager.textContent(), "1–30 de 40Mais antigas →");
      await pager.getByRole("link", { name: "Mais antigas →" }).click();
      await page.waitForURL(/\?page=2#open$/);
      assert.equal(await page.locator(".gap-group").count(), 10);
      assert.ok(await page.getByText(madeUpWord(0, "z"), { exact: false }).isVisible());
      assert.equal(await hasHorizontalScroll(page), false, "sideways scrolling at 390 px");
      const axe = await runAxe(page);
      assert.deepEqual(axe, [], JSON.stringify(axe, null, 2));
      await page.getByRole("link", { name: "← Mais recentes" }).click();
      await page.waitForURL(/\/admin\/gaps#open$/);
      assert.equal(await page.locator(".gap-group").count(), 30);

      // A group no page will answer is dismissed: it leaves the open ones for "Dispensadas".
      const newest = page.locator("#open .gap-group").first();
      const question = (await newest.locator("h2").textContent())!;
      await newest.getByRole("button", { name: "Dispensar: não é assunto do site" }).click();
      await page.locator("[role=status]", { hasText: "Grupo dispensado" }).waitFor();
      assert.equal(await page.locator("#open h2", { hasText: question }).count(), 0);
      const dismissed = page.getByRole("region", { name: "Dispensadas" });
      assert.equal(await dismissed.locator("h3", { hasText: question }).count(), 1);
      assert.match(
        await page.getByRole("navigation", { name: "Perguntas sem resposta" }).textContent() ?? "",
        /1–30 de 39/,
      );
      assert.equal(await hasHorizontalScroll(page), false, "sideways scrolling at 390 px");
      const axeDismissed = await runAxe(page);
      assert.deepEqual(axeDismissed, [], JSON.stringify(axeDismissed, null, 2));
      await dismissed.getByRole("button", { name: "Restaurar às abertas" }).click();
      await page.locator("[role=status]", { hasText: "Grupo restaurado" }).waitFor();
      assert.equal(await page.locator("#open h2", { hasText: question }).count(), 1);

      // With the list paged, the owner's filter finds a group on any page.
      const oldest = madeUpWord(0, "q");
      await page.getByRole("searchbox", { name: "Filtrar por palavras das perguntas" }).fill(
        oldest,
      );
      await page.getByRole("button", { name: "Filtrar", exact: true }).click();
      await page.waitForURL(/\?q=/);
      assert.equal(await page.locator(".gap-group").count(), 1);
      assert.ok(await page.getByText(oldest, { exact: false }).first().isVisible());
      const axeFiltered = await runAxe(page);
      assert.deepEqual(axeFiltered, [], JSON.stringify(axeFiltered, null, 2));
      await page.getByRole("link", { name: "Mostrar todas" }).click();
      await page.waitForURL(/\/admin\/gaps$/);
      assert.equal(await page.locator(".gap-group").count(), 30);
      await ctx.close();
    } finally {
      await browser.close();
      await server.close();
      kv.close();
    }
  },
});
