/**
 * The owner's dashboard in Chromium: at 1440 px every table fits its page (no sideways
 * scrolling), with the long model ids of real providers in the usage table. Screenshots at
 * 390 and 1440 px in test-results/screenshots/ (SCREENSHOT_DIR).
 */
import assert from "node:assert/strict";
import type { UpstreamCall } from "@/lib/models/types.ts";
import { createKvUsageRecorder } from "@/lib/store/usage.ts";
import { launchBrowser, screenshotDir } from "../support/browser.ts";
import { startTestServer } from "../support/server.ts";
import { testConfig } from "../support/chat_client.ts";

const E2E = { sanitizeOps: false, sanitizeResources: false };
const ADMIN_TOKEN = "admin-token-layout-0123456789abcdef";

/** Long model ids, as the catalog names them. */
const MODELS = [
  "openrouter/meta-llama/llama-3.3-70b-instruct",
  "cloudflare/@cf/meta/llama-3.1-8b-instruct-fast",
  "google/gemini-2.5-flash-lite",
  "local",
];

async function seedUsage(kv: Deno.Kv): Promise<void> {
  const usage = createKvUsageRecorder(kv);
  const now = Date.now();
  for (let day = 0; day < 3; day++) {
    for (const [i, model] of MODELS.entries()) {
      const call: UpstreamCall = {
        family: model === "local" ? "offline" : "openai-compatible",
        provider: model === "local" ? "offline" : "openrouter",
        model,
        route: "direct",
        status: 200,
        ttfbMs: 420 + i,
        totalMs: 2150 + i,
        outcome: i === 1 ? "aborted" : "complete",
        inputTokens: 123_456 + i,
        outputTokens: 45_678 + i,
        costUsd: model === "local" ? 0 : 12.3456,
        at: now - day * 86_400_000,
      };
      await usage.record(call);
    }
  }
}

Deno.test({
  ...E2E,
  name: "e2e admin: the dashboard's tables fit 1440 px without sideways scrolling",
  async fn() {
    const kv = await Deno.openKv(":memory:");
    await seedUsage(kv);
    const server = await startTestServer({ kv, env: { ADMIN_TOKEN }, config: testConfig() });
    const browser = await launchBrowser();
    try {
      const shots = await screenshotDir();
      for (const width of [390, 1440]) {
        const ctx = await browser.newContext({
          viewport: { width, height: 900 },
          locale: "pt-BR",
          extraHTTPHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        const page = await ctx.newPage();
        const res = await page.goto(server.url + "/admin");
        assert.equal(res?.status(), 200);
        await page.locator("#usage .admin-table").waitFor();
        // The wrapper and the table itself (prose tables scroll on their own) may scroll.
        const overflow = await page.locator(".admin-table, .admin-table table").evaluateAll((
          els,
        ) =>
          els.map((el) => ({
            table: el.closest("section")?.id ?? "",
            scroll: el.scrollWidth,
            client: el.clientWidth,
          }))
        );
        assert.ok(overflow.length > 0);
        if (width === 1440) {
          const wide = overflow.filter((o) => o.scroll > o.client);
          assert.deepEqual(wide, [], "tables wider than their box at 1440 px");
          const page_ = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(page_ <= 1440, `the page is ${page_} px wide`);
        }
        await page.locator("#usage").screenshot({ path: `${shots}/admin-usage-${width}.png` });
        await ctx.close();
      }
    } finally {
      await browser.close();
      await server.close();
      kv.close();
    }
  },
});
