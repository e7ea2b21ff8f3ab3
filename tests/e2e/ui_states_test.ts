/**
 * Screens of every chat state (empty, streaming, finished with sources, error
 * banner, stopped, editing, a rich answer with a table, code and math) at 360
 * and 1440 px in light and dark, and a
 * measurement (no timing asserted) of main-thread long tasks while a ~2,000-token
 * answer streams, and of the gzip size of the JavaScript a first visit loads.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createModelRegistry } from "@/lib/models/registry.ts";
import {
  hasHorizontalScroll,
  launchBrowser,
  screenshotDir,
  viewContext,
  VIEWS,
  watchPage,
} from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { startReplayServer } from "../support/replay_server.ts";
import { testConfig } from "../support/chat_client.ts";
import {
  ask,
  chatCompletionsPieces,
  chatScript,
  openaiChatStream,
  openaiReplayEnv,
  openChat,
  waitForAnswer,
} from "../support/ui.ts";

const E2E = { sanitizeOps: false, sanitizeResources: false };

/** A model answer with everything markdown can carry here. */
const RICH = [
  "## Área de um círculo",
  "",
  "A área é $A = \\pi r^2$; para $r = 2$, $A \\approx 12{,}57$.",
  "",
  "\\[",
  "\\int_0^{2\\pi} \\int_0^r \\rho \\, d\\rho \\, d\\theta = \\pi r^2",
  "\\]",
  "",
  "| r | área |",
  "| --: | --: |",
  "| 1 | 3,14 |",
  "| 2 | 12,57 |",
  "",
  "```ts",
  "const area = (r: number) => Math.PI * r ** 2;",
  "```",
  "",
  "Custa R$ 10 por mês.",
].join("\n");

Deno.test({
  ...E2E,
  name: "e2e states: screenshots of every chat state at 360 and 1440 px, light and dark",
  async fn() {
    const fast = await startTestServer({ config: testConfig() });
    const slow = await startTestServer({
      config: testConfig(),
      services: { models: createModelRegistry({ env: {}, local: { delayMs: 100 } }) },
    });
    const replay = startReplayServer(chatScript([{ fixture: "openai-error.1.json", status: 500 }]));
    const richReplay = startReplayServer(chatScript([{ body: openaiChatStream(RICH) }]));
    const rich = await startTestServer({
      env: openaiReplayEnv(richReplay.url),
      config: testConfig(),
    });
    const failing = await startTestServer({
      env: openaiReplayEnv(replay.url),
      config: testConfig(),
    });
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    const shots: string[] = [];
    try {
      for (const view of VIEWS) {
        const context = await viewContext(browser, view);
        const shoot = async (page: Page, state: string) => {
          assert.ok(
            !await hasHorizontalScroll(page),
            `${state}: no horizontal scroll at ${view.width}`,
          );
          const file = `${dir}/ui-${state}-${view.width}-${view.scheme}.png`;
          await page.screenshot({ path: file });
          shots.push(file);
        };

        // Empty, finished with sources, editing.
        const page = await context.newPage();
        const seen = watchPage(page);
        await openChat(page, fast.url + "/");
        await shoot(page, "empty");
        await ask(page, "Quais dados vocês guardam e por quanto tempo?");
        await waitForAnswer(page);
        assert.ok(await page.locator(".msg-assistant .sources a.chip").count() > 0, "sources");
        await shoot(page, "finished");
        await page.getByRole("button", { name: "Editar pergunta" }).click();
        await page.locator("#edit-input").waitFor();
        await shoot(page, "editing");
        assert.deepEqual(seen.errors, []);

        // Streaming, then stopped.
        const streaming = await context.newPage();
        await openChat(streaming, slow.url + "/");
        await ask(streaming, "Como faço para publicar o assistente no meu site?");
        await streaming.locator(".msg-assistant .md").first().waitFor();
        await streaming.waitForTimeout(400);
        await shoot(streaming, "streaming");
        await streaming.keyboard.press("Escape");
        await streaming.locator(".msg-assistant .interrupted").waitFor();
        await streaming.locator(".msg-assistant .answer-actions").waitFor();
        await shoot(streaming, "stopped");

        // The error banner.
        const error = await context.newPage();
        await openChat(error, failing.url + "/");
        await ask(error, "Olá, quem é você?");
        await error.locator(".error-banner[role=alert]").waitFor();
        await shoot(error, "error");

        // A rich answer: math as MathML (loaded for it), a table, highlighted code.
        const richPage = await context.newPage();
        const richSeen = watchPage(richPage);
        await openChat(richPage, rich.url + "/");
        await ask(richPage, "Qual é a área de um círculo?");
        await waitForAnswer(richPage);
        const answer = richPage.locator(".msg-assistant .md").first();
        await answer.locator("code[data-hl]").first().waitFor();
        assert.equal(
          await answer.locator("math").count(),
          4,
          "three inline formulas and one block",
        );
        assert.equal(await answer.locator("math[display=block]").count(), 1);
        assert.equal(await answer.locator(".math-src").count(), 0, "no TeX left as source");
        assert.equal(await answer.locator("table tr").count(), 3);
        assert.match(await answer.innerText(), /Custa R\$ 10 por mês\./);
        await shoot(richPage, "rich");
        assert.deepEqual(richSeen.errors, []);
        await context.close();
      }
      console.log(`${shots.length} screenshots in ${dir}`);
    } finally {
      await browser.close();
      await Promise.all([fast.close(), slow.close(), failing.close(), rich.close()]);
      await Promise.all([replay.close(), richReplay.close()]);
    }
  },
});

Deno.test({
  ...E2E,
  name: "e2e states: measure long tasks while a ~2,000-token answer streams, and first-visit JS",
  async fn() {
    // The recorded answer's pieces, seven times over: about 2,000 tokens.
    const pieces = await chatCompletionsPieces("openai-text.chunks.txt");
    const long = Array.from({ length: 7 }, (_, i) => [`\n\n## Parte ${i + 1}\n\n`, ...pieces])
      .flat();
    const replay = startReplayServer(chatScript([{ body: openaiChatStream(long), delayMs: 3 }]));
    const server = await startTestServer({
      env: openaiReplayEnv(replay.url),
      config: testConfig(),
    });
    const browser = await launchBrowser();
    try {
      // First visit to "/": every script the page loads, gzipped in the page.
      const first = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const visit = await first.newPage();
      const scripts = new Set<string>();
      visit.on("request", (req) => {
        if (req.resourceType() === "script") scripts.add(req.url());
      });
      await openChat(visit, server.url + "/");
      await visit.waitForLoadState("networkidle");
      const sizes = await visit.evaluate(async (urls) => {
        const out = [];
        for (const url of urls) {
          const body = await (await fetch(url)).arrayBuffer();
          const gz = new Response(
            new Blob([body]).stream().pipeThrough(new CompressionStream("gzip")),
          );
          out.push({ url, raw: body.byteLength, gzip: (await gz.arrayBuffer()).byteLength });
        }
        return out;
      }, [...scripts]);
      await first.close();
      assert.ok(sizes.length > 0, "the page loads scripts");
      const gzip = sizes.reduce((n, s) => n + s.gzip, 0);
      const raw = sizes.reduce((n, s) => n + s.raw, 0);

      // The long answer, with a long-task observer installed before the page loads.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addInitScript(() => {
        const g = globalThis as unknown as { __longTasks: number[] };
        g.__longTasks = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) g.__longTasks.push(entry.duration);
        }).observe({ type: "longtask", buffered: true });
      });
      const page = await context.newPage();
      await openChat(page, server.url + "/");
      const before = await page.evaluate(() =>
        (globalThis as unknown as { __longTasks: number[] }).__longTasks.length
      );
      // Sample the visible answer while it streams: it must paint as it arrives, not at the end.
      await page.evaluate(() => {
        const g = globalThis as unknown as { __lengths: number[] };
        g.__lengths = [];
        const timer = setInterval(() => {
          const el = document.querySelector(".msg-assistant .md");
          if (el) g.__lengths.push(el.textContent?.length ?? 0);
          if (document.querySelector(".msg-assistant .receipt")) clearInterval(timer);
        }, 100);
      });
      const started = performance.now();
      await ask(page, "Conte tudo sobre o assistente");
      await waitForAnswer(page, 60_000);
      const lengths = await page.evaluate(() =>
        (globalThis as unknown as { __lengths: number[] }).__lengths
      );
      const steps = new Set(lengths.filter((n) => n > 0)).size;
      assert.ok(
        steps >= 5,
        `the answer painted progressively (${steps} distinct lengths while streaming)`,
      );
      const streamMs = performance.now() - started;
      const text = await page.locator(".msg-assistant .md").first().innerText();
      assert.ok(text.length > 5000, `the long answer arrived (${text.length} chars)`);
      const tasks = await page.evaluate(() =>
        (globalThis as unknown as { __longTasks: number[] }).__longTasks
      );
      const during = tasks.slice(before);
      await context.close();

      const fmt = (n: number) => `${Math.round(n)} ms`;
      console.log(
        `First visit to "/": ${sizes.length} scripts, ${(raw / 1024).toFixed(1)} KiB raw, ` +
          `${(gzip / 1024).toFixed(1)} KiB gzip (${gzip} bytes)\n` +
          sizes.map((s) => `  ${new URL(s.url).pathname}: ${s.raw} B raw, ${s.gzip} B gzip`)
            .join("\n"),
      );
      console.log(
        `Streaming ${long.length} pieces (~1 token each, ` +
          `${text.length} chars) took ${fmt(streamMs)}; long tasks: page load ${before}, ` +
          `while streaming ${during.length} over 50 ms, longest ${fmt(Math.max(0, ...during))}` +
          ` (longest overall ${fmt(Math.max(0, ...tasks))})`,
      );
    } finally {
      await browser.close();
      await server.close();
      await replay.close();
    }
  },
});
