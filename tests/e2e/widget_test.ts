/**
 * The embeddable widget in Chromium, on a static host page served from other loopback
 * ports: from an allowed origin (http://localhost:<port>, another site than the app's
 * http://127.0.0.1, so the frame is third-party and its cookies do not travel) the launcher
 * opens the chat, a question gets an answer with sources, and a contact request is
 * approved and sent; from an origin that is not allowed the panel shows the refusal. The
 * host page's hostile CSS does not change the widget, nor the widget the page.
 * Screenshots in test-results/screenshots/widget-*.png; the JS the open panel loads is
 * printed (BENCHMARKS.md).
 */
import assert from "node:assert/strict";
import type { Frame, FrameLocator, Page } from "playwright-core";
import {
  DESKTOP,
  launchBrowser,
  screenshotDir,
  viewContext,
  watchPage,
} from "../support/browser.ts";
import { testConfig } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

const RECADO =
  "Manda um recado pro dono do site dizendo que adorei o site. Meu nome é Ana e meu email é ana@example.com";

/** Rules a careless or hostile page may hold: they must not reach the widget. */
const HOSTILE_CSS = `
* { font-family: "Comic Sans MS", cursive !important; color: #c00 !important;
    border: 3px dashed lime !important; margin: 7px !important; box-sizing: content-box !important; }
button { background: hotpink !important; width: 300px !important; height: 12px !important;
    border-radius: 0 !important; padding: 20px !important; }
div { padding: 30px !important; background: #ffe !important; }
iframe { display: none !important; }
svg { display: none !important; }
[role=dialog] { width: 10px !important; }
`;

/** The host page: some content, hostile CSS unless `plain`, the widget unless `widget` is false. */
function hostPage(appUrl: string, { plain = false, widget = true, extra = "" } = {}): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Host</title>
${plain ? "" : `<style>${HOSTILE_CSS}</style>`}</head><body>
<h1 id="title">Um site estático qualquer</h1>
<p id="text">Texto da página hospedeira.</p>
<button id="own-button" type="button">Botão da página</button>
<div class="box" id="box">Caixa</div>
${widget ? `<script src="${appUrl}/widget.js" defer ${extra}></script>` : ""}
</body></html>`;
}

/**
 * Serves host pages on 127.0.0.1 and a free port: `/`, `/plain` and other `/plain…` pages,
 * `/bare` (no widget), `/en`.
 */
function startHost(appUrl: () => string): { port: number; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const html = path.startsWith("/plain")
      ? hostPage(appUrl(), { plain: true })
      : path === "/bare"
      ? hostPage(appUrl(), { widget: false })
      : path === "/en"
      ? hostPage(appUrl(), { plain: true, extra: 'data-lang="en" data-position="bottom-left"' })
      : hostPage(appUrl());
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  return { port: (server.addr as Deno.NetAddr).port, close: () => server.shutdown() };
}

/** Computed styles of `selector` (in the page or the widget's shadow root), as a record. */
function stylesOf(
  page: Page,
  selector: string,
  inShadow: boolean,
): Promise<Record<string, string>> {
  return page.evaluate(([selector, inShadow]) => {
    const root = inShadow ? document.querySelector("site-assistant")?.shadowRoot : document;
    const el = root?.querySelector(selector as string);
    if (!el) throw new Error(`No ${selector}`);
    const s = getComputedStyle(el);
    const props = [
      "font-family",
      "color",
      "background-color",
      "border-top-width",
      "border-top-style",
      "margin-top",
      "padding-top",
      "width",
      "height",
      "display",
      "border-top-left-radius",
      "position",
    ];
    return Object.fromEntries(props.map((p) => [p, s.getPropertyValue(p)]));
  }, [selector, inShadow] as const);
}

/** Clicks the launcher and returns the frame once its chat is hydrated. */
async function openWidget(page: Page): Promise<FrameLocator> {
  await page.locator("site-assistant .launcher").click();
  const frame = page.frameLocator("site-assistant iframe");
  await frame.locator(".conversation[data-hydrated=true]").waitFor({ timeout: 15_000 });
  return frame;
}

async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return (await new Response(stream).arrayBuffer()).byteLength;
}

Deno.test({
  name: "e2e widget: open, ask, sources, approve a contact request; styles isolated both ways",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    let appUrl = "";
    const host = startHost(() => appUrl);
    const allowed = `http://localhost:${host.port}`;
    const server = await startTestServer({ config: testConfig({ allowedOrigins: [allowed] }) });
    appUrl = server.url;
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);

      // The page without the widget, for the "widget changes nothing" comparison.
      await page.goto(`${allowed}/bare`);
      const pageIds = ["body", "#title", "#text", "#own-button", "#box"];
      const before = await Promise.all(pageIds.map((s) => stylesOf(page, s, false)));

      // Nothing but the loader until the launcher is clicked.
      const js: { url: string; bytes: Uint8Array }[] = [];
      page.on("response", async (res) => {
        if (!res.url().startsWith(appUrl) || !/\.js(\?|$)/.test(res.url())) return;
        if (res.status() !== 200) return; // 304: widget.js revalidated on a later page
        js.push({ url: res.url(), bytes: await res.body() });
      });
      const chatPosts: Record<string, string>[] = [];
      page.on("request", async (req) => {
        if (req.url() === `${appUrl}/api/chat`) chatPosts.push(await req.allHeaders());
      });
      await page.goto(`${allowed}/`);
      await page.locator("site-assistant .launcher").waitFor();
      assert.equal(await page.locator("site-assistant iframe").count(), 0, "no frame before open");
      const loaderJs = js.map((j) => new URL(j.url).pathname);
      assert.deepEqual(loaderJs, ["/widget.js"]);
      await page.screenshot({ path: `${dir}/widget-closed-hostile.png` });

      const frame = await openWidget(page);
      const opened = js.slice(1);
      const raw = opened.reduce((n, j) => n + j.bytes.byteLength, 0);
      const gz = (await Promise.all(opened.map((j) => gzipSize(j.bytes)))).reduce(
        (a, b) => a + b,
        0,
      );
      console.log(
        `widget.js: ${js[0].bytes.byteLength} B (${await gzipSize(js[0].bytes)} B gzip); ` +
          `JS loaded when the panel opens: ${opened.length} files, ${raw} B (${gz} B gzip): ` +
          opened.map((j) => new URL(j.url).pathname).join(", "),
      );

      // Widget → page: with the widget open, the page's own elements are as without it.
      const after = await Promise.all(pageIds.map((s) => stylesOf(page, s, false)));
      assert.deepEqual(after, before, "the widget changes none of the page's styles");

      // Ask: the answer cites the site, with source chips.
      await frame.locator("#composer-input").fill("Quais dados vocês guardam e por quanto tempo?");
      await frame.locator("#composer-input").press("Enter");
      const answer = frame.locator(".msg-assistant").last();
      await answer.locator(".sources a.chip").first().waitFor({ timeout: 20_000 });
      await frame.locator(".thread[aria-busy=false]").waitFor();
      assert.match(await answer.locator(".md").first().innerText(), /^“/);
      await page.screenshot({ path: `${dir}/widget-answer-hostile.png` });

      // Approve a contact request: sent exactly once.
      await frame.locator("#composer-input").fill(RECADO);
      await frame.locator("#composer-input").press("Enter");
      const card = frame.locator(".approval-card[data-approval-state=approval-requested]");
      await card.waitFor({ timeout: 20_000 });
      await frame.locator(".thread[aria-busy=false]").waitFor();
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${dir}/widget-approval-hostile.png` });
      await card.getByRole("button", { name: /Aprovar/ }).click();
      await frame.locator(".msg-assistant .md").getByText(/Recado enviado/).waitFor({
        timeout: 20_000,
      });
      assert.equal((await server.services.contact.list()).messages.length, 1);

      // Artifacts: the offline diagram opens in the panel inside the frame, and Escape
      // closes the artifact panel first, not the widget.
      await frame.locator("#composer-input").fill(
        "Desenhe um diagrama de como o assistente funciona",
      );
      await frame.locator("#composer-input").press("Enter");
      const artifactCard = frame.locator(".artifact-open").last();
      await artifactCard.waitFor({ timeout: 20_000 });
      await frame.locator(".thread[aria-busy=false]").waitFor();
      await artifactCard.click();
      const artifactPanel = frame.locator(".artifact-panel[role=dialog]");
      const svg = artifactPanel.locator(".artifact-preview-svg img");
      await svg.waitFor();
      assert.match(
        decodeURIComponent((await svg.getAttribute("src"))!.split(",")[1]),
        /Como funciona o assistente/,
      );
      await page.screenshot({ path: `${dir}/widget-artifact-hostile.png` });
      await page.keyboard.press("Escape");
      await artifactPanel.waitFor({ state: "detached" });
      assert.equal(await page.locator("site-assistant .panel[hidden]").count(), 0, "widget open");

      // The frame's identity is its token, not a cookie: the chat belongs to the token.
      // (Playwright's Chromium gives the third-party frame no storage at all, see
      // tests/support/browser.ts: the token lives in the frame's memory.)
      const inner = page.frames().find((f: Frame) => f.url().startsWith(`${appUrl}/widget?`))!;
      const chatId = new URL(inner.url()).searchParams.get("chat")!;
      const owner = (await server.services.store.getChat(chatId))?.visitorId;
      assert.ok(chatPosts.length >= 3, "question, request and approval were posted");
      for (const headers of chatPosts) {
        const token = /^Bearer (vt1\.\S+)$/.exec(headers.authorization ?? "")?.[1];
        assert.ok(token, "every chat call carries the visitor token");
        assert.equal(await server.services.signer.tokens!.verify(token), owner);
        assert.equal(headers.cookie, undefined, "and no cookie");
      }

      // Page → widget: the launcher and panel look the same on a page without any CSS.
      const widgetParts = [".launcher", ".panel"];
      await page.mouse.move(1, 1); // no hover colour on the launcher
      const hostile = await Promise.all(widgetParts.map((s) => stylesOf(page, s, true)));
      const plainPage = await context.newPage();
      await plainPage.goto(`${allowed}/plain`);
      await openWidget(plainPage);
      await plainPage.mouse.move(1, 1);
      const plain = await Promise.all(widgetParts.map((s) => stylesOf(plainPage, s, true)));
      assert.deepEqual(hostile, plain, "the page's CSS does not reach the widget");
      assert.equal(hostile[0]["background-color"], "rgb(15, 118, 110)");
      await plainPage.screenshot({ path: `${dir}/widget-open-plain.png` });

      // data-lang and data-position: English chat, launcher on the left.
      const en = await context.newPage();
      await en.goto(`${allowed}/en`);
      const enFrame = await openWidget(en);
      assert.equal(await enFrame.locator("html").getAttribute("lang"), "en");
      const box = await en.locator("site-assistant .launcher").boundingBox();
      assert.ok(box && box.x < DESKTOP.width / 2, `launcher on the left (x=${box?.x})`);
      await en.screenshot({ path: `${dir}/widget-open-en-left.png` });

      // Escape in the frame (nothing streaming) closes the panel.
      await enFrame.locator("#composer-input").press("Escape");
      await en.locator("site-assistant .panel[hidden]").waitFor({ state: "attached" });

      // Without storage in the frame, the next page of the host site is a new visitor: the
      // panel reopens by itself (the page's sessionStorage), on an empty chat, with a new token.
      const tokenOf = (headers: Record<string, string>) =>
        /^Bearer (vt1\.\S+)$/.exec(headers.authorization ?? "")?.[1];
      const firstToken = tokenOf(chatPosts[0]);
      const models = page.waitForRequest(`${appUrl}/api/models`);
      await page.goto(`${allowed}/`);
      const nextFrame = page.frameLocator("site-assistant iframe");
      await nextFrame.locator(".conversation[data-hydrated=true] .welcome").waitFor();
      const nextToken = tokenOf(await (await models).allHeaders());
      assert.ok(nextToken && firstToken && nextToken !== firstToken, "a new visitor");

      assert.deepEqual(seen.errors, []);
      assert.deepEqual(seen.failed, []);
      console.log(`Screenshots in ${dir}`);
    } finally {
      await browser.close();
      await server.close();
      await host.close();
    }
  },
});

/** The frame's own localStorage (partitioned by the host site) as a record. */
function frameStorage(page: Page, appUrl: string): Promise<Record<string, string>> {
  const frame = page.frames().find((f: Frame) => f.url().startsWith(appUrl))!;
  return frame.evaluate(() => ({ ...localStorage }));
}

/** Asks `question` in the widget's frame and waits for the whole answer. */
async function ask(frame: FrameLocator, question: string): Promise<void> {
  await frame.locator("#composer-input").fill(question);
  await frame.locator("#composer-input").press("Enter");
  await frame.locator(".msg-user").getByText(question).waitFor({ timeout: 20_000 });
  await frame.locator(".msg-assistant .sources a.chip").last().waitFor({ timeout: 20_000 });
  await frame.locator(".thread[aria-busy=false]").waitFor();
}

Deno.test({
  name: "e2e widget: one conversation across the host site's pages; new, previous; delete my data",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    let appUrl = "";
    const host = startHost(() => appUrl);
    const allowed = `http://localhost:${host.port}`;
    const server = await startTestServer({ config: testConfig({ allowedOrigins: [allowed] }) });
    appUrl = server.url;
    // Storage partitioned by the top-level site, as in every current browser.
    const browser = await launchBrowser({ partitionedStorage: true });
    const dir = await screenshotDir();
    const { store, signer } = server.services;
    const Q1 = "Quais dados vocês guardam e por quanto tempo?";
    const Q2 = "E como eu apago esses dados?";
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);
      await page.goto(`${allowed}/plain`);
      let frame = await openWidget(page);
      await ask(frame, Q1);
      const kept = await frameStorage(page, appUrl);
      const token = kept["site-assistant:visitor-token"];
      const chatId = kept["site-assistant:chat"];
      assert.ok(token?.startsWith("vt1.") && chatId, `the frame keeps token and chat: ${kept}`);
      assert.equal((await store.getChat(chatId))?.visitorId, await signer.tokens!.verify(token));
      // The host page holds only the open flag: no token, no chat.
      const pageStorage = await page.evaluate(() =>
        JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) +
        document.cookie
      );
      assert.equal(pageStorage, '{}{"site-assistant:open":"1"}');

      // Reloading just the frame (its context menu, a crash) reopens the same chat under
      // the same token: its URL stays a /widget one, which the host site may frame.
      const inner = page.frames().find((f: Frame) => f.url().startsWith(appUrl))!;
      const frameUrl = new URL(inner.url());
      assert.equal(frameUrl.pathname, "/widget");
      assert.equal(frameUrl.searchParams.get("chat"), chatId);
      assert.equal(frameUrl.searchParams.get("lang"), "pt-BR");
      const reopened = page.waitForResponse((r) => r.url() === `${appUrl}/api/chats/${chatId}`);
      await inner.evaluate(() => location.reload());
      assert.equal((await reopened).status(), 200, "the reloaded frame reopens its chat");
      await frame.locator(".conversation[data-hydrated=true]").waitFor({ timeout: 15_000 });
      await frame.locator(".msg-user").getByText(Q1).waitFor({ timeout: 15_000 });
      await frame.locator(".msg-assistant .sources a.chip").first().waitFor();
      assert.equal((await frameStorage(page, appUrl))["site-assistant:visitor-token"], token);
      assert.deepEqual(seen.errors, [], "no framing refusal");

      // Another page of the site: the panel opens again by itself on the same conversation.
      await page.goto(`${allowed}/plain-other-page`);
      frame = page.frameLocator("site-assistant iframe");
      await frame.locator(".msg-user").getByText(Q1).waitFor({ timeout: 15_000 });
      await frame.locator(".msg-assistant .sources a.chip").first().waitFor();
      await ask(frame, Q2);
      const messages = await store.loadMessages(chatId);
      assert.equal(messages.length, 4, "both questions and answers in the one chat");
      assert.equal((await frameStorage(page, appUrl))["site-assistant:visitor-token"], token);
      await page.screenshot({ path: `${dir}/widget-continued.png` });

      // A new conversation; the previous one is in the list and opens again.
      await frame.getByRole("button", { name: "Nova conversa" }).click();
      await frame.locator(".welcome").waitFor();
      await ask(frame, "Como faço para falar com o dono do site?");
      const second = (await frameStorage(page, appUrl))["site-assistant:chat"];
      assert.ok(second && second !== chatId, "the new conversation is kept as the current one");
      await frame.getByRole("button", { name: "Conversas" }).click();
      const items = frame.locator(".widget-chat-items button");
      await items.nth(1).waitFor();
      assert.equal(await items.count(), 2);
      await page.screenshot({ path: `${dir}/widget-chats.png` });
      // The reopened chat asks whether an answer still streams (204): let that finish first.
      const resumed = page.waitForResponse((r) => r.url().endsWith(`/api/chat/${chatId}/stream`));
      await frame.locator(`.widget-chat-items button[data-chat-id="${chatId}"]`).click();
      await frame.locator(".msg-user").getByText(Q2).waitFor();
      assert.equal((await resumed).status(), 204);
      assert.equal((await frameStorage(page, appUrl))["site-assistant:chat"], chatId);
      await page.reload();
      frame = page.frameLocator("site-assistant iframe");
      await frame.locator(".msg-user").getByText(Q2).waitFor({ timeout: 15_000 });

      // Delete my data: the chats are gone, the old token is refused, a new visitor begins.
      await frame.getByRole("button", { name: "Apagar meus dados" }).click();
      await page.screenshot({ path: `${dir}/widget-delete-confirm.png` });
      const models = page.waitForRequest(`${appUrl}/api/models`);
      await frame.getByRole("button", { name: "Apagar tudo" }).click();
      await frame.locator(".widget-notice").getByText(/dados foram apagados/).waitFor();
      await frame.locator(".welcome").waitFor();
      await page.screenshot({ path: `${dir}/widget-deleted.png` });
      const fresh = /^Bearer (vt1\.\S+)$/.exec((await (await models).allHeaders()).authorization)
        ?.[1];
      assert.ok(fresh && fresh !== token, "the next call carries a new token");
      assert.equal(await store.getChat(chatId), null);
      assert.equal(await store.getChat(second), null);
      const old = await fetch(`${appUrl}/api/chats`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(old.status, 401, "the old token is revoked");
      await old.body?.cancel();
      const other = await fetch(`${appUrl}/api/chats/${chatId}`, {
        headers: { authorization: `Bearer ${fresh}` },
      });
      assert.equal(other.status, 404, "the old chat is gone for the new visitor too");
      await other.body?.cancel();
      assert.deepEqual(Object.keys(await frameStorage(page, appUrl)), [
        "site-assistant:visitor-token",
      ]);
      await page.goto(`${allowed}/plain`);
      await page.frameLocator("site-assistant iframe").locator(
        ".conversation[data-hydrated=true] .welcome",
      ).waitFor({ timeout: 15_000 });

      assert.deepEqual(seen.errors, []);
      assert.deepEqual(seen.failed, []);
    } finally {
      await browser.close();
      await server.close();
      await host.close();
    }
  },
});

Deno.test({
  name: "e2e widget: a page of an origin that is not allowed shows origin_not_allowed",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    let appUrl = "";
    const host = startHost(() => appUrl);
    const server = await startTestServer({
      config: testConfig({ allowedOrigins: ["https://someone-else.example"] }),
    });
    appUrl = server.url;
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const consoleLines: string[] = [];
      page.on("console", (m) => consoleLines.push(m.text()));
      const origin = `http://localhost:${host.port}`;
      await page.goto(`${origin}/`);
      await page.locator("site-assistant .launcher").click();
      const alert = page.locator("site-assistant .panel .error[role=alert]");
      await alert.waitFor({ timeout: 10_000 });
      assert.match(await alert.innerText(), /origin_not_allowed/);
      assert.equal(await page.locator("site-assistant iframe").count(), 0, "no chat frame");
      await page.screenshot({ path: `${dir}/widget-not-allowed.png` });

      // The API refuses the page's own calls too, preflights included.
      const direct = await page.evaluate(async (app) => {
        const simple = await fetch(`${app}/api/health`, { credentials: "omit" });
        const preflighted = await fetch(`${app}/api/chat`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        }).then(() => "answered", (e) => `refused: ${e}`);
        return { status: simple.status, code: (await simple.json()).error.code, preflighted };
      }, appUrl);
      assert.deepEqual(direct.status, 403);
      assert.equal(direct.code, "origin_not_allowed");
      assert.match(direct.preflighted, /^refused/);

      // Framing the chat by hand is refused by the browser (CSP frame-ancestors).
      await page.evaluate((app) => {
        const f = document.createElement("iframe");
        f.src = `${app}/widget`;
        document.body.append(f);
      }, appUrl);
      await page.waitForEvent("console", {
        predicate: (m) => /frame-ancestors/.test(m.text()),
        timeout: 10_000,
      }).catch(() => null);
      assert.ok(
        consoleLines.some((l) => /frame-ancestors/.test(l)),
        `framing refused: ${consoleLines.join(" | ")}`,
      );
    } finally {
      await browser.close();
      await server.close();
      await host.close();
    }
  },
});
