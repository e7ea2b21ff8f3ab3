/** The app on loopback (offline model, in-memory KV) and a Chromium, for an e2e test. */
import type { Browser } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { testConfig } from "./chat_client.ts";

/** Runs `fn` with a server of the test configuration and a browser, closing both. */
export async function withApp(
  fn: (server: TestServer, browser: Browser) => Promise<void>,
): Promise<void> {
  const server = await startTestServer({ config: testConfig() });
  const browser = await launchBrowser();
  try {
    await fn(server, browser);
  } finally {
    await browser.close();
    await server.close();
  }
}
