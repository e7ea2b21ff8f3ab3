/**
 * Child processes of tests/bench/chat_bench.ts (not a bench itself: the name does
 * not end in `_bench.ts`). Prints "listening <port>" once ready, then serves until
 * killed.
 *
 *   deno run -A tests/bench/chat_bench_child.ts replay <fixture>
 *     the replay server (tests/support/replay_server.ts) replaying <fixture> to every request;
 *     `POST /__pace?ms=N` sets the delay between chunks for the requests that follow
 *   deno run -A tests/bench/chat_bench_child.ts app <replay base URL>
 *     the real app with OpenAI Chat Completions pointed at `<replay>/v1`, in-memory KV,
 *     and rate limits out of the way (a bench sends bursts of hundreds of turns)
 *   deno run -A tests/bench/chat_bench_child.ts app-nolog <replay base URL>
 *     the same app with the resumable-stream log switched off (a log that writes nothing),
 *     to measure what the log costs (tests/bench/stream_log_bench.ts)
 *   deno run -A tests/bench/chat_bench_child.ts peer <replay base URL>
 *     the thinnest server over the same adapter, as a floor: it parses the body, calls the
 *     OpenAI adapter's `doStream` with the question and writes the text as UI message
 *     chunks; no KV, no checks, no history, no tools, no engine
 *   deno run -A tests/bench/chat_bench_child.ts sdk <replay base URL>
 *     the same thin server with the AI SDK's own loop instead of `doStream`:
 *     `streamText(...).toUIMessageStreamResponse()` (tests/bench/capacity_bench.ts)
 *
 * The replay server's `POST /__pace?ms=N&tokens=T` also sets the answer: T > 0 replays a
 * synthetic answer of T text chunks (the fixture's own chunks, repeated) instead of the
 * fixture, for figures per 1,000 tokens.
 *
 *   deno run -A tests/bench/chat_bench_child.ts stamped <fixture>
 *     a provider stand-in like `replay` (same chunks, same framing, `POST /__pace?ms=N&tokens=T`)
 *     whose first text chunk carries the wall-clock time it was written (`⏱<epoch ms>`), so a
 *     client can tell what any server in between added to that very stream
 *     (tests/bench/capacity_bench.ts); `GET /__sent` tells how many text chunks it has written
 */
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";
import defaultConfig from "@/fresh.config.ts";
import { createServerApp } from "@/lib/server.ts";
import { startReplayServer } from "../support/replay_server.ts";
import { floorHandler, silentStreamLog } from "./floor_server.ts";

const [mode, arg] = Deno.args;

/** An OpenAI Chat Completions stream of `tokens` text chunks, built from `fixture`'s chunks. */
function syntheticAnswer(fixture: string, tokens: number): string[] {
  const dir = new URL("../fixtures/providers/", import.meta.url);
  const lines = Deno.readTextFileSync(new URL(fixture, dir)).split("\n").filter((l) => l.trim());
  const text = lines.filter((l) => JSON.parse(l).choices?.[0]?.delta?.content);
  const rest = lines.filter((l) => !JSON.parse(l).choices?.[0]?.delta?.content);
  const out = [rest[0]];
  for (let i = 0; i < tokens; i++) out.push(text[i % text.length]);
  out.push(...rest.slice(1));
  return [...out.map((l) => `data: ${l}\n\n`), "data: [DONE]\n\n"];
}

if (mode === "replay") {
  let paceMs = 0;
  let answer: string[] | null = null;
  const replay = startReplayServer((request) => {
    const url = new URL(request.path, "http://x");
    if (url.pathname === "/__pace") {
      paceMs = Number(url.searchParams.get("ms") ?? 0);
      const tokens = Number(url.searchParams.get("tokens") ?? 0);
      answer = tokens > 0 ? syntheticAnswer(arg, tokens) : null;
      return { body: "ok", headers: { "content-type": "text/plain" } };
    }
    return answer
      ? { body: answer, delayMs: paceMs, headers: { "content-type": "text/event-stream" } }
      : { fixture: arg, delayMs: paceMs };
  });
  // Requests are recorded with their bodies; keep the record from growing for the whole run.
  setInterval(() => replay.requests.splice(0), 1000);
  setInterval(() => replay.closes.splice(0), 1000);
  console.log(`listening ${new URL(replay.url).port}`);
} else if (mode === "app" || mode === "app-nolog") {
  const big = { requestsPerMinute: 1_000_000_000, tokensPerDay: 1_000_000_000_000 };
  const config = { ...defaultConfig, limits: { visitor: big, ip: big } };
  const kv = await Deno.openKv(":memory:");
  const { app } = await createServerApp({
    env: {
      OPENAI_API_KEY: "x",
      OPENAI_BASE_URL: `${arg}/v1`,
      OPENAI_API: "chat",
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
    },
    config,
    kv,
    // In memory: no other process can write it, so kv.watch sees every write (as on Deploy).
    kvWatchSeesEveryWriter: true,
    ...(mode === "app-nolog" ? { services: { streamLog: silentStreamLog() } } : {}),
  });
  Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(`listening ${port}`),
  }, app);
} else if (mode === "peer") {
  Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(`listening ${port}`),
  }, floorHandler(arg));
} else if (mode === "stamped") {
  // sentTokens: text chunks written since the start, for figures per token that do not depend
  // on how a server groups them (the app merges deltas that come close together).
  let paceMs = 0, tokens = 0, sentTokens = 0;
  const lines = Deno.readTextFileSync(new URL(`../fixtures/providers/${arg}`, import.meta.url))
    .split("\n").filter((l) => l.trim());
  const encoder = new TextEncoder();
  Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(`listening ${port}`),
  }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/__pace") {
      paceMs = Number(url.searchParams.get("ms") ?? 0);
      tokens = Number(url.searchParams.get("tokens") ?? 0);
      return new Response("ok");
    }
    if (url.pathname === "/__sent") return new Response(String(sentTokens));
    await req.arrayBuffer();
    const chunks = tokens > 0 ? syntheticAnswer(arg, tokens) : lines.map((l) => `data: ${l}\n\n`)
      .concat("data: [DONE]\n\n");
    let i = 0, stamped = false, timer: ReturnType<typeof setTimeout> | undefined;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          return new Promise<void>((resolve) => {
            timer = setTimeout(() => {
              let chunk = chunks[i++];
              if (!stamped && chunk.includes('"content":"') && !chunk.includes('"content":""')) {
                stamped = true;
                const json = JSON.parse(chunk.slice(6));
                json.choices[0].delta.content = `⏱${
                  (performance.timeOrigin + performance.now()).toFixed(3)
                }`;
                chunk = `data: ${JSON.stringify(json)}\n\n`;
              }
              if (/"content":"[^"]/.test(chunk)) sentTokens++;
              controller.enqueue(encoder.encode(chunk));
              if (i >= chunks.length) controller.close();
              resolve();
            }, i === 0 ? 0 : paceMs);
          });
        },
        cancel: () => clearTimeout(timer),
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  });
} else if (mode === "sdk") {
  const model = createOpenAI({ apiKey: "x", baseURL: `${arg}/v1` }).chat("gpt-4.1-mini");
  Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(`listening ${port}`),
  }, async (req) => {
    const body = await req.json() as { message: { parts: { text: string }[] } };
    const result = streamText({
      model,
      messages: [{ role: "user", content: body.message.parts[0].text }],
      abortSignal: req.signal,
      maxRetries: 0,
    });
    return result.toUIMessageStreamResponse();
  });
} else {
  console.error(
    "usage: chat_bench_child.ts replay <fixture> | app|app-nolog|peer|sdk <replay base URL>",
  );
  Deno.exit(2);
}
