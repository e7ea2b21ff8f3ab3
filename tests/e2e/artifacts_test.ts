/**
 * Artifacts in Chromium: the hostile suite (every escape attempt fails, the HTTP and UDP
 * spies receive nothing) with `srcdoc` frames and with a separate ARTIFACT_ORIGIN; three
 * versions of one artifact with the picker and the diff, and their return after a reload;
 * the offline model's diagram, the keyboard path, the panel at 360 and 1440 px in light
 * and dark, and the panel's code loading only when an artifact is opened.
 */
import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { Page } from "playwright-core";
import { createScriptedModel, scriptedRegistry, type ScriptedStep } from "@/lib/models/testing.ts";
import { createServerApp } from "@/lib/server.ts";
import { MAX_FRAME_HEIGHT } from "@/lib/artifacts/sandbox_doc.ts";
import {
  DESKTOP,
  forEachView,
  launchBrowser,
  screenshotDir,
  viewContext,
  watchPage,
} from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { testConfig } from "../support/chat_client.ts";
import { ask, openChat, waitForAnswer } from "../support/ui.ts";
import { HARMLESS_IF_SUCCEEDED, HOSTILE_CASES } from "../support/hostile_artifacts.ts";

/**
 * The text of the visitor's latest message in a model call, or null once an artifact was made
 * after it (the turn's prefetched search may sit between the two).
 */
function lastUserText(options: LanguageModelV4CallOptions): string | null {
  const at = options.prompt.findLastIndex((m) => m.role === "user");
  const made = options.prompt.slice(at + 1).some((m) =>
    m.role === "tool" &&
    m.content.some((p) => p.type === "tool-result" && p.toolName === "create_artifact")
  );
  const user = options.prompt[at];
  if (made || user?.role !== "user") return null;
  return user.content.map((p) => (p.type === "text" ? p.text : "")).join(" ");
}

/** A model that answers "caso N" with hostile artifact N and "versão N" with version N of one artifact. */
function artifactModel(spy: string, stun: string) {
  return createScriptedModel([(options): ScriptedStep => {
    const text = lastUserText(options);
    if (text === null) return { type: "text", text: "Pronto." };
    const hostile = /caso (\d+)/.exec(text);
    if (hostile) {
      const c = HOSTILE_CASES[Number(hostile[1])];
      return {
        type: "tool-call",
        toolName: "create_artifact",
        input: {
          title: `Caso ${hostile[1]}: ${c.name}`,
          kind: c.kind,
          content: c.content(spy, stun),
        },
      };
    }
    const version = /versão (\d+)/.exec(text);
    if (version) {
      return {
        type: "tool-call",
        toolName: "create_artifact",
        input: {
          artifactId: "demo",
          title: "Demo",
          kind: "html",
          content: versionContent(Number(version[1])),
        },
      };
    }
    return { type: "text", text: "Não entendi." };
  }]);
}

/** Version n of the demo artifact: line 3 changes in v2, a line is added in v3. */
function versionContent(n: number): string {
  const lines = [
    "<!DOCTYPE html>",
    "<h1>Demo</h1>",
    n === 1 ? "<p>first</p>" : "<p>changed</p>",
    "<ul><li>a</li></ul>",
    ...(n >= 3 ? ["<p>third</p>"] : []),
    `<script>document.querySelector("h1").textContent = "Demo v${n}";</script>`,
  ];
  return lines.join("\n") + "\n";
}

interface Spy {
  url: string;
  /** A STUN server URL whose UDP listener reports every datagram into `received`. */
  stun: string;
  received: string[];
  close(): Promise<void>;
}

/** An HTTP spy and a UDP one on loopback; whatever reaches either is recorded. */
async function startSpy(): Promise<Spy> {
  const received: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    received.push(`${req.method} ${new URL(req.url).pathname}`);
    return new Response("spy", { headers: { "access-control-allow-origin": "*" } });
  });
  // node:dgram needs no --unstable-net, so `deno task test:e2e` runs this file as it is.
  const udp = createSocket("udp4");
  udp.on("message", (msg, from) => received.push(`UDP ${msg.length} bytes from port ${from.port}`));
  await new Promise<void>((ok) => udp.bind(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    stun: `stun:127.0.0.1:${udp.address().port}`,
    received,
    async close() {
      await new Promise<void>((ok) => udp.close(() => ok()));
      await server.shutdown();
    },
  };
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = l.addr as Deno.NetAddr;
  l.close();
  return port;
}

/**
 * The app with the artifact model; with `artifactOrigin`, the same app also answers as
 * `http://localhost:<port>` — a different origin for the browser, like a second hostname.
 */
async function startArtifactApp(spy: Spy, artifactOrigin: boolean): Promise<TestServer> {
  const models = scriptedRegistry(artifactModel(spy.url, spy.stun));
  if (!artifactOrigin) return await startTestServer({ config: testConfig(), services: { models } });
  const port = freePort();
  const kv = await Deno.openKv(":memory:");
  const { app, services } = await createServerApp({
    env: {},
    kv,
    config: testConfig(),
    services: { models, artifactOrigin: `http://localhost:${port}` },
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, app);
  return {
    url: `http://127.0.0.1:${port}`,
    services,
    async close() {
      await server.shutdown();
      kv.close();
    },
  };
}

/** Asks for `text`, waits for the answer, opens the last artifact card; returns the card. */
async function openLastArtifact(page: Page, text: string) {
  await ask(page, text);
  await waitForAnswer(page);
  const card = page.locator(".artifact-open").last();
  // The pointer off any source chip, whose preview could cover the card.
  await page.mouse.move(0, 0);
  await card.click();
  await page.locator(".artifact-panel[role=dialog]").waitFor();
  return card;
}

for (const mode of ["srcdoc", "ARTIFACT_ORIGIN"] as const) {
  Deno.test({
    name: `e2e artifacts: the hostile suite escapes nothing (${mode})`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const spy = await startSpy();
      const server = await startArtifactApp(spy, mode === "ARTIFACT_ORIGIN");
      const browser = await launchBrowser();
      const succeeded: string[] = [];
      let attempts = 0;
      try {
        const context = await viewContext(browser, DESKTOP);
        const page = await context.newPage();
        const popups: string[] = [];
        let current = "";
        context.on("page", (p) => popups.push(`${current}: ${p.url()}`));
        const seen = watchPage(page);
        await openChat(page, server.url + "/");
        await page.evaluate(() => localStorage.setItem("canary", "parent-secret"));
        const before = await page.evaluate(() => ({ title: document.title, url: location.href }));
        for (let i = 0; i < HOSTILE_CASES.length; i++) {
          const c = HOSTILE_CASES[i];
          current = c.name;
          await openLastArtifact(page, `caso ${i}`);
          if (c.kind === "svg") {
            // An SVG is an image: its script never runs, its links never load.
            await page.locator(".artifact-preview-svg img").waitFor();
            const src = await page.locator(".artifact-preview-svg img").getAttribute("src");
            assert.match(src ?? "", /^data:image\/svg\+xml/);
            assert.equal(await page.locator(".artifact-panel iframe").count(), 0);
            await page.waitForTimeout(700);
            attempts++;
          } else {
            const frame = page.frameLocator(".artifact-frame");
            await frame.locator("html[data-done]").waitFor({ timeout: 10_000 }).catch(async (e) => {
              await page.screenshot({ path: "/tmp/arttest/fail.png" });
              console.log(c.name, seen.errors, await page.locator(".artifact-panel").innerHTML());
              throw e;
            });
            const results = JSON.parse(
              (await frame.locator("html").getAttribute("data-results")) ?? "{}",
            ) as Record<string, string>;
            for (const [name, result] of Object.entries(results)) {
              attempts++;
              if (result.startsWith("succeeded") && !HARMLESS_IF_SUCCEEDED.has(name)) {
                succeeded.push(`${c.name} / ${name}: ${result}`);
              }
            }
          }
          // The page is untouched: same title and URL, its storage intact, the frame's height clamped.
          const now = await page.evaluate(() => ({ title: document.title, url: location.href }));
          assert.equal(now.title, before.title, `${c.name}: title`);
          assert.match(now.url, /\/c\/c[0-9a-f]+$/, `${c.name}: url`);
          const height = await page.locator(".artifact-frame").evaluateAll((els) =>
            els.map((el) => (el as HTMLElement).getBoundingClientRect().height)
          );
          assert.ok(height.every((h) => h <= MAX_FRAME_HEIGHT), `${c.name}: height ${height}`);
          // Navigations and late beacons get their chance before the frame goes.
          await page.waitForTimeout(1200);
          await page.keyboard.press("Escape");
          await page.locator(".artifact-panel").waitFor({ state: "detached" });
        }
        assert.equal(await page.evaluate(() => localStorage.getItem("canary")), "parent-secret");
        await page.waitForTimeout(500);
        assert.deepEqual(popups, [], "no popup opened");
        assert.deepEqual(succeeded, [], "no attempt succeeded");
        assert.deepEqual(spy.received, [], "the spies (HTTP and STUN) received nothing");
        console.log(
          `Hostile suite (${mode}): ${HOSTILE_CASES.length} artifacts, ${attempts} attempts, ` +
            `${succeeded.length} succeeded, spy requests: ${spy.received.length}`,
        );
        void seen;
        await context.close();
      } finally {
        await browser.close();
        await server.close();
        await spy.close();
      }
    },
  });
}

Deno.test({
  name:
    "e2e artifacts: three versions, the picker, diff 1↔3 unified and side by side, back after a reload",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const spy = await startSpy();
    const server = await startArtifactApp(spy, false);
    const browser = await launchBrowser();
    try {
      const context = await viewContext(browser, DESKTOP);
      const page = await context.newPage();
      const seen = watchPage(page);
      await openChat(page, server.url + "/");
      for (const n of [1, 2, 3]) {
        await ask(page, `versão ${n}`);
        await waitForAnswer(page);
      }
      const check = async () => {
        const cards = page.locator(".artifact-open");
        await page.locator('.artifact-open[data-artifact-version="3"]').waitFor();
        assert.deepEqual(
          await cards.evaluateAll((els) =>
            els.map((el) => (el as HTMLElement).dataset.artifactVersion)
          ),
          ["1", "2", "3"],
        );
        assert.match(await cards.last().innerText(), /Demo[\s\S]*HTML · versão 3/);
        await cards.last().click();
        const panel = page.locator(".artifact-panel[role=dialog]");
        await panel.waitFor();
        // The preview runs the version's own script.
        await page.frameLocator(".artifact-frame").locator("h1", { hasText: "Demo v3" }).waitFor();
        assert.deepEqual(
          await panel.locator(".artifact-version option").allInnerTexts(),
          ["versão 1", "versão 2", "versão 3 (mais recente)"],
        );
        await panel.locator(".artifact-version").selectOption("1");
        await page.frameLocator(".artifact-frame").locator("h1", { hasText: "Demo v1" }).waitFor();
        await panel.getByRole("tab", { name: "Código" }).click();
        assert.equal(
          await panel.locator(".artifact-code").textContent(),
          versionContent(1),
        );
        await panel.getByRole("tab", { name: "Diferenças" }).click();
        await panel.locator(".artifact-diff-from").selectOption("1");
        await panel.locator(".artifact-diff-to").selectOption("3");
        const rows = panel.locator(".diff-unified tbody tr");
        await rows.first().waitFor();
        const changed = await rows.evaluateAll((els) =>
          els.filter((el) => !el.classList.contains("diff-same")).map((el) =>
            `${el.classList.contains("diff-add") ? "+" : "-"}${
              el.querySelector(".diff-text")?.textContent
            }`
          )
        );
        assert.deepEqual(changed, [
          "-<p>first</p>",
          "+<p>changed</p>",
          '-<script>document.querySelector("h1").textContent = "Demo v1";</script>',
          "+<p>third</p>",
          '+<script>document.querySelector("h1").textContent = "Demo v3";</script>',
        ]);
        assert.match(await panel.locator(".diff-stats").innerText(), /\+3 −2/);
        await panel.locator(".artifact-mode-split").click();
        const split = await panel.locator(".diff-split tbody tr").evaluateAll((els) =>
          els.map((el) => [...el.querySelectorAll(".diff-text")].map((td) => td.textContent))
        );
        assert.deepEqual(split[2], ["<p>first</p>", "<p>changed</p>"]);
        assert.deepEqual(split[4][1], "<p>third</p>");
        assert.deepEqual(split[5], [
          "",
          '<script>document.querySelector("h1").textContent = "Demo v3";</script>',
        ]);
        await panel.locator(".artifact-close").click();
        await panel.waitFor({ state: "detached" });
      };
      await check();
      // Reload: the artifact and its versions come back from KV.
      await page.reload();
      await page.waitForSelector(".conversation[data-hydrated=true]");
      await check();
      // Chromium 156 does not know the artifact policy's `webrtc` directive and says so.
      const unknownWebrtc = /^Unrecognized Content-Security-Policy directive 'webrtc'\.$/;
      assert.deepEqual(
        seen.errors.filter((e) => !/Content Security Policy/.test(e) && !unknownWebrtc.test(e)),
        [],
      );
      await context.close();
    } finally {
      await browser.close();
      await server.close();
      await spy.close();
    }
  },
});

Deno.test({
  name:
    "e2e artifacts: the offline diagram, keyboard open/tabs/Escape, screenshots, the panel loads on open",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestServer();
    const browser = await launchBrowser();
    const dir = await screenshotDir();
    try {
      await forEachView(browser, async ({ view, page, seen }) => {
        const scripts: string[] = [];
        page.on(
          "request",
          (r) => r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname),
        );
        await openChat(page, server.url + "/");
        const firstVisit = scripts.length;
        await ask(
          page,
          view.scheme === "dark"
            ? "Draw a diagram of how the assistant works"
            : "Desenhe um diagrama de como o assistente funciona",
        );
        await waitForAnswer(page, 30_000);
        const card = page.locator(".artifact-open").last();
        await card.waitFor();
        const loadedBeforeOpen = scripts.length;
        // Keyboard: focus the card, Enter opens, focus lands on the Preview tab.
        await card.focus();
        await page.keyboard.press("Enter");
        const panel = page.locator(".artifact-panel[role=dialog]");
        await panel.waitFor();
        assert.ok(
          scripts.length > loadedBeforeOpen,
          "the panel's code loads when an artifact is opened",
        );
        assert.ok(firstVisit > 0);
        const img = panel.locator(".artifact-preview-svg img");
        await img.waitFor();
        const svg = decodeURIComponent((await img.getAttribute("src"))!.split(",")[1]);
        // Built from the corpus' headings, in the visitor's language.
        if (view.scheme === "dark") {
          assert.match(svg, /How the assistant works|Walking through|conversation/i);
        } else assert.match(svg, /Como funciona o assistente/);
        await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "tab");
        assert.equal(
          await page.evaluate(() => document.activeElement?.textContent),
          "Visualizar",
        );
        await page.screenshot({ path: `${dir}/artifact-panel-${view.width}-${view.scheme}.png` });
        await page.keyboard.press("ArrowRight");
        assert.equal(
          await panel.getByRole("tab", { selected: true }).innerText(),
          "Código",
        );
        await panel.locator(".artifact-code").waitFor();
        await page.keyboard.press("Escape");
        await panel.waitFor({ state: "detached" });
        await page.waitForFunction(() =>
          document.activeElement?.classList.contains("artifact-open")
        );
        assert.deepEqual(seen.errors, []);
        if (view.width === 360) {
          assert.equal(
            await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
            true,
          );
        }
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
});
