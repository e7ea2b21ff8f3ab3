/**
 * "Use with your AI tool" in the widget, in Chromium: on a host page of another origin the
 * widget's bar offers it; the overlay takes focus on its heading, lists the Claude Code,
 * Cursor and VS Code snippets for this site's /mcp (the footer's list), a Copy button puts a
 * snippet on the clipboard and says so, Escape closes it and focus returns to the button.
 * In English too, at 360 px dark. Screenshot before the axe check. Screenshots: test-results/screenshots/widget-ai-tool-*.png.
 */
import assert from "node:assert/strict";
import { launchBrowser, screenshotDir, viewContext, VIEWS, watchPage } from "../support/browser.ts";
import { testConfig } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";
import { runAxe } from "../support/ui.ts";

function startHost(appUrl: () => string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const lang = new URL(req.url).pathname === "/en" ? ' data-lang="en"' : "";
    const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Host</title>
</head><body><h1>Um site</h1><script src="${appUrl()}/widget.js" defer${lang}></script></body></html>`;
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  return { port: server.addr.port, close: () => server.shutdown() };
}

Deno.test({
  name:
    "e2e widget: 'Use with your AI tool' opens from the bar, copies a snippet, and closes with Escape",
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
      const runs = [
        ["/", "Usar com sua ferramenta de IA", "Copiado.", VIEWS[2]],
        ["/en", "Use with your AI tool", "Copied.", VIEWS[1]],
      ] as const;
      for (const [path, label, copied, view] of runs) {
        // A new visitor each time (the widget remembers whether its panel was open).
        const context = await viewContext(browser, view);
        await context.grantPermissions(["clipboard-read", "clipboard-write"]);
        const page = await context.newPage();
        const seen = watchPage(page);
        await page.goto(`${allowed}${path}`);
        await page.locator("site-assistant .launcher").click();
        const frame = page.frameLocator("site-assistant iframe");
        await frame.locator(".conversation[data-hydrated=true]").waitFor({ timeout: 15_000 });
        const button = frame.getByRole("button", { name: label, exact: true });
        assert.equal(await button.getAttribute("aria-expanded"), "false");
        await button.focus();
        await page.keyboard.press("Enter");
        assert.equal(await button.getAttribute("aria-expanded"), "true");
        const heading = frame.locator("#widget-overlay-title");
        assert.equal(await heading.textContent(), label);
        assert.equal(await heading.evaluate((el) => el === document.activeElement), true);
        const snippets = frame.locator(".widget-ai-tool pre");
        assert.equal(await snippets.count(), 3);
        const claude = `claude mcp add --transport http site-assistant ${server.url}/mcp`;
        assert.equal((await snippets.first().innerText()).trim(), claude);
        assert.match(await snippets.nth(2).innerText(), /"type": "http"/);

        // Keyboard: the first Copy button, by Tab from the heading past the first snippet.
        const copy = frame.locator(".widget-copy").first();
        await copy.focus();
        await page.keyboard.press("Enter");
        await frame.locator(".widget-copy-status", { hasText: copied }).waitFor();
        const clip = await page.evaluate(() => navigator.clipboard.readText());
        assert.equal(clip, claude, "the snippet is on the clipboard");
        await page.screenshot({
          path: `${dir}/widget-ai-tool-${view.width}-${view.scheme}.png`,
        });
        {
          const serious = (await runAxe(page)).filter((v) =>
            v.impact === "serious" || v.impact === "critical"
          );
          assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes.join(", ")}`), []);
        }

        await page.keyboard.press("Escape");
        await frame.locator(".widget-ai-tool").waitFor({ state: "detached" });
        await frame.locator(".conversation").waitFor();
        assert.equal(await button.evaluate((el) => el === document.activeElement), true);
        assert.equal(await button.getAttribute("aria-expanded"), "false");
        assert.deepEqual(seen.errors, []);
        await context.close();
      }
    } finally {
      await browser.close();
      await server.close();
      await host.close();
    }
  },
});
