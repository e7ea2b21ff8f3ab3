/**
 * Launches Debian's Chromium through playwright-core for the e2e tests, with
 * the flags this environment needs (no sandbox as root, no background network).
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/**
 * Playwright 1.65.1's own `--disable-features` list (chromiumSwitches.ts) without
 * `ThirdPartyStoragePartitioning`. Playwright turns Chrome's storage partitioning off; its
 * contexts also block third-party cookies (as incognito does), and together these deny a
 * third-party frame any localStorage or sessionStorage, which no current browser does
 * (Chrome, Firefox and Safari give such a frame storage partitioned by the top-level site).
 * Chromium keeps the last `--disable-features` of its command line, so this one replaces
 * Playwright's whole list: keep it in step when upgrading playwright-core.
 */
const PLAYWRIGHT_DISABLED_FEATURES_WITH_PARTITIONING = "--disable-features=" + [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
].join(",");

/**
 * Launches headless Chromium (`CHROMIUM_PATH` overrides the binary). `partitionedStorage`
 * gives third-party frames partitioned storage, as every current browser does (see above);
 * without it they get none (Playwright's default).
 */
export function launchBrowser(
  { partitionedStorage = false }: { partitionedStorage?: boolean } = {},
): Promise<Browser> {
  return chromium.launch({
    executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
    args: partitionedStorage ? [...FLAGS, PLAYWRIGHT_DISABLED_FEATURES_WITH_PARTITIONING] : FLAGS,
    headless: true,
  });
}

/** Collects console errors and failed requests of a page, for tests that demand none. */
export function watchPage(page: Page): { errors: string[]; failed: string[] } {
  const errors: string[] = [];
  const failed: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  page.on(
    "requestfailed",
    (req) => failed.push(`${req.method()} ${req.url()} ${req.failure()?.errorText ?? ""}`),
  );
  page.on("response", (res) => {
    if (res.status() >= 400) failed.push(`${res.request().method()} ${res.url()} ${res.status()}`);
  });
  return { errors, failed };
}

/** Folder for screenshots: SCREENSHOT_DIR or test-results/screenshots. */
export async function screenshotDir(): Promise<string> {
  const dir = Deno.env.get("SCREENSHOT_DIR") ??
    new URL("../../test-results/screenshots", import.meta.url).pathname;
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

/**
 * Folder for the screenshots the README shows: docs/screenshots when UPDATE_DOCS_SCREENSHOTS=1,
 * else the test-results folder, so a test run leaves the repository's files as they were.
 */
export async function docsScreenshotDir(): Promise<string> {
  if (Deno.env.get("UPDATE_DOCS_SCREENSHOTS") !== "1") return await screenshotDir();
  const dir = new URL("../../docs/screenshots", import.meta.url).pathname;
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

/** The viewports and colour schemes every screen is checked in. */
export const VIEWS = [
  { width: 360, height: 740, scheme: "light" },
  { width: 360, height: 740, scheme: "dark" },
  { width: 1440, height: 900, scheme: "light" },
  { width: 1440, height: 900, scheme: "dark" },
] as const;

/** The view of tests that need only one: desktop, light. */
export const DESKTOP = VIEWS[2];

/** A browser context at one of `VIEWS`: its viewport and colour scheme, pt-BR. */
export function viewContext(
  browser: Browser,
  view: (typeof VIEWS)[number],
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: view.width, height: view.height },
    colorScheme: view.scheme,
    locale: "pt-BR",
  });
}

/** One view's fresh context and page, with its console errors and failed requests watched. */
export interface ViewRun {
  view: (typeof VIEWS)[number];
  context: BrowserContext;
  page: Page;
  seen: ReturnType<typeof watchPage>;
}

/** Runs `fn` at every one of `VIEWS` in turn, each in its own context, closed after. */
export async function forEachView(
  browser: Browser,
  fn: (run: ViewRun) => Promise<void>,
): Promise<void> {
  for (const view of VIEWS) {
    const context = await viewContext(browser, view);
    try {
      const page = await context.newPage();
      await fn({ view, context, page, seen: watchPage(page) });
    } finally {
      await context.close();
    }
  }
}

/** Whether the page scrolls sideways (it never should, from 360 px up). */
export function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > globalThis.innerWidth);
}
