/**
 * Helpers for the chat UI e2e tests: open the chat and ask, wait for a finished
 * answer, point the app's OpenAI provider (Chat Completions) at a replay server,
 * build OpenAI Chat Completions SSE streams, run axe-core in a page, and a
 * loopback "spy" server that counts the requests it receives.
 */
import type { Page } from "playwright-core";
import type { Env } from "@/lib/models/types.ts";
import {
  fixtureChunks,
  type RecordedRequest,
  type ReplayScript,
  type ReplayStep,
} from "./replay_server.ts";

/** Env that makes the OpenAI family (Chat Completions API) talk to `replayUrl`; it becomes the default model. */
export function openaiReplayEnv(replayUrl: string): Env {
  return { OPENAI_API_KEY: "test", OPENAI_BASE_URL: `${replayUrl}/v1`, OPENAI_API: "chat" };
}

/**
 * A replay script for the chat: streaming calls take `steps` in order (the last
 * repeats); non-streaming calls (the chat title) get a small JSON completion.
 */
export function chatScript(steps: ReplayStep[], title = "Conversa de teste"): ReplayScript {
  let streamed = 0;
  return (request: RecordedRequest) => {
    if ((request.body as { stream?: boolean } | undefined)?.stream !== true) {
      return {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id: "chatcmpl-title",
          object: "chat.completion",
          created: 1770933892,
          model: "gpt-4.1-mini",
          choices: [{
            index: 0,
            message: { role: "assistant", content: title },
            finish_reason: "stop",
          }],
          usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
        }),
      };
    }
    return steps[Math.min(streamed++, steps.length - 1)];
  };
}

/** How many streaming (chat turn) calls a replay server received. */
export function streamedCalls(requests: RecordedRequest[]): number {
  return requests.filter((r) => (r.body as { stream?: boolean } | undefined)?.stream === true)
    .length;
}

/** Opens `url` and waits for the message list to hydrate. */
export async function openChat(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector(".conversation[data-hydrated=true]", { timeout: 10_000 });
}

/** Types a question into the composer and sends it with Enter. */
export async function ask(page: Page, text: string): Promise<void> {
  await page.locator("#composer-input").fill(text);
  await page.locator("#composer-input").press("Enter");
}

/**
 * Waits until no answer is streaming, the last answer shows its actions, and the frame that
 * paints its last text has been drawn (the list renders at most once a frame, so the end of
 * a stream can show a frame before its last words).
 */
export async function waitForAnswer(page: Page, timeout = 20_000): Promise<void> {
  await page.locator(".msg-assistant").last().locator(".answer-actions").waitFor({ timeout });
  await page.locator(".thread[aria-busy=false]").waitFor({ timeout });
  await page.evaluate(() =>
    new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)))
  );
}

/** Ids (`m-…` without the prefix) of the messages shown, with their roles. */
export function shownMessages(page: Page): Promise<{ id: string; role: string; text: string }[]> {
  return page.locator(".thread article.msg").evaluateAll((els) =>
    els.map((el) => ({
      id: el.id.replace(/^m-/, ""),
      role: el.classList.contains("msg-user") ? "user" : "assistant",
      text: ((el.querySelector(".bubble, .md") as HTMLElement | null)?.innerText ?? "").trim(),
    }))
  );
}

/**
 * An OpenAI Chat Completions SSE stream (framed events, ending in `[DONE]`) that
 * streams `text` in pieces of `pieceLength` characters (or the given pieces), then a stop
 * and usage.
 */
export function openaiChatStream(text: string | string[], pieceLength = 12): string[] {
  const base = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 1770933892 };
  const model = "gpt-4.1-mini";
  const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
  const out = [
    event({
      ...base,
      model,
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
    }),
  ];
  const pieces = typeof text === "string"
    ? Array.from(
      { length: Math.ceil(text.length / pieceLength) },
      (_, i) => text.slice(i * pieceLength, (i + 1) * pieceLength),
    )
    : text;
  for (const piece of pieces) {
    out.push(event({
      ...base,
      model,
      choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
    }));
  }
  const length = pieces.join("").length;
  out.push(event({ ...base, model, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
  out.push(event({
    ...base,
    model,
    choices: [],
    usage: { prompt_tokens: 50, completion_tokens: Math.ceil(length / 4), total_tokens: 0 },
  }));
  out.push("data: [DONE]\n\n");
  return out;
}

/** The `delta.content` pieces of a recorded Chat Completions fixture. */
export async function chatCompletionsPieces(fixture: string): Promise<string[]> {
  const { chunks } = await fixtureChunks(fixture);
  return chunks.flatMap((c) => {
    const data = c.slice("data: ".length).trim();
    if (data === "[DONE]") return [];
    return (JSON.parse(data).choices ?? []).flatMap((ch: { delta?: { content?: string } }) =>
      ch.delta?.content ? [ch.delta.content] : []
    );
  });
}

/** The path of axe-core's browser bundle in node_modules. */
export const AXE_PATH = new URL("../../node_modules/axe-core/axe.min.js", import.meta.url).pathname;

/** One axe violation, trimmed for messages. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Injects axe-core (once per document) and runs it; returns the violations. */
export async function runAxe(page: Page, rules?: string[]): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => "axe" in globalThis);
  // Evaluated through the devtools protocol: the page's CSP refuses an injected <script>.
  if (!loaded) await page.evaluate(await Deno.readTextFile(AXE_PATH));
  return await page.evaluate(async (only) => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run(
      document,
      only ? { runOnly: { type: "rule", values: only } } : { resultTypes: ["violations"] },
    );
    // deno-lint-ignore no-explicit-any
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      // deno-lint-ignore no-explicit-any
      nodes: v.nodes.slice(0, 5).map((n: any) => `${n.target.join(" ")}: ${n.failureSummary}`),
    }));
  }, rules ?? null);
}

/** A loopback HTTP server that counts (and records) every request it receives. */
export interface SpyServer {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** Starts a {@linkcode SpyServer} on 127.0.0.1. */
export function startSpyServer(): SpyServer {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    hits.push(`${req.method} ${new URL(req.url).pathname}${new URL(req.url).search}`);
    return new Response("spy", { headers: { "content-type": "image/png" } });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => server.shutdown() };
}
