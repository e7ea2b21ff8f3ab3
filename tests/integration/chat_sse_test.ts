/**
 * The wire format of POST /api/chat: SSE headers as proxies and the AI SDK need
 * them (no buffering, no transformation, no compression), and the heartbeat
 * comment during silence, which the SDK's parser skips.
 */
import assert from "node:assert/strict";
import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from "ai";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { createServerApp } from "@/lib/server.ts";
import { startReplayedApp, startTestServer } from "../support/server.ts";
import { startReplayServer } from "../support/replay_server.ts";
import { openaiReplayEnv } from "../support/ui.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  parseSseText,
  postChat,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends a raw HTTP/1.1 request and returns the status, headers and the whole body text. */
async function rawRequest(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  const url = new URL(baseUrl);
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  const bytes = new TextEncoder().encode(body);
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    "Connection: close",
    `Content-Length: ${bytes.length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    "",
    "",
  ].join("\r\n");
  await conn.write(new TextEncoder().encode(head));
  await conn.write(bytes);
  const text = await new Response(conn.readable).text();
  const end = text.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const map = new Map<string, string>();
  for (const line of lines) {
    const i = line.indexOf(":");
    map.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return { status: Number(statusLine.split(" ")[1]), headers: map, body: text.slice(end + 4) };
}

Deno.test("sse: headers for proxies and the SDK; never compressed, even when the client asks", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const res = await rawRequest(server.url, "/api/chat", {
      "Content-Type": "application/json",
      "Accept-Encoding": "gzip, deflate, br",
    }, JSON.stringify({ id: newChatId(), message: userMessage("Quais dados vocês guardam?") }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    assert.equal(res.headers.get("cache-control"), "no-cache, no-transform");
    assert.equal(res.headers.get("x-accel-buffering"), "no");
    assert.equal(res.headers.get("x-vercel-ai-ui-message-stream"), "v1");
    assert.equal(res.headers.get("content-encoding"), undefined, "not compressed");
    assert.equal(res.headers.get("content-length"), undefined, "streamed, not buffered");
    assert.match(res.headers.get("set-cookie") ?? "", /^visitor=[^;]+;.*HttpOnly/);
    // Chunked framing around plain SSE text.
    assert.equal(res.headers.get("transfer-encoding"), "chunked");
    assert.match(res.body, /data: \{"type":"start"/);
    assert.match(res.body, /data: \[DONE\]/);
  } finally {
    await server.close();
  }
});

Deno.test("sse: a keep-alive comment is sent during silence, and the SDK's parser skips it", async () => {
  const { server, close } = await startReplayedApp([{
    fixture: "azure-model-router.1.chunks.txt",
    delayMs: 120,
  }], {
    services: { heartbeatMs: 50 },
  });
  try {
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      model: "openai/gpt-4.1-mini",
      message: userMessage("Qual é a capital da Dinamarca?"),
    }, { jar: new CookieJar() });
    assert.equal(res.status, 200);
    const [forRaw, forSdk] = res.body!.tee();
    const rawText = new Response(forRaw).text();
    const chunks = parseJsonEventStream({ stream: forSdk, schema: uiMessageChunkSchema })
      .pipeThrough(
        new TransformStream({
          transform(result, controller) {
            if (!result.success) throw result.error;
            controller.enqueue(result.value as UIMessageChunk);
          },
        }),
      );
    let message: ChatMessage | undefined;
    for await (const m of readUIMessageStream<ChatMessage>({ stream: chunks })) message = m;
    const raw = await rawText;

    assert.match(raw, /\n\n: keep-alive\n\n/);
    const sse = parseSseText(raw);
    assert.ok(sse.comments.length >= 3, `heartbeats: ${sse.comments.length}`);
    assert.ok(sse.comments.every((c) => c === " keep-alive"));
    assert.ok(sse.done);
    assert.equal(messageText(message), "Capital of Denmark.");
    const saved = await server.services.store.loadMessages(id);
    assert.deepEqual(JSON.parse(JSON.stringify(message)), saved[1]);
  } finally {
    await close();
  }
});

/** The text deltas of an SSE body, and the text they make. */
function deltasOf(raw: string): { count: number; text: string } {
  const deltas = parseSseText(raw).chunks.filter((c) => c.type === "text-delta");
  return { count: deltas.length, text: deltas.map((c) => c.delta).join("") };
}

// A second tab following the log sees the same merged chunks: chat_resume_test.ts (its offline
// model streams 15 ms apart, inside the window).
Deno.test("sse: deltas close together go out merged, and the saved answer is the text sent", async () => {
  // 300 deltas, 2 ms apart: about a dozen to each 25 ms window.
  const { server, close } = await startReplayedApp([{
    fixture: "openai-text.chunks.txt",
    delayMs: 2,
  }]);
  try {
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      model: "openai/gpt-4.1-mini",
      message: userMessage("Hi"),
    }, { jar: new CookieJar() });
    assert.equal(res.status, 200);
    const raw = await res.text();
    const { count, text } = deltasOf(raw);
    assert.ok(text.length > 1000);
    assert.ok(count > 1 && count < 150, `300 provider deltas came as ${count} chunks`);
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    assert.equal(messageText(saved[1]), text);
  } finally {
    await close();
  }
});

Deno.test("sse: deltas further apart than the merge window each go out at once", async () => {
  // "Capital", " of", " Denmark", ".": 150 ms apart, six times the window.
  const { server, close } = await startReplayedApp([{
    fixture: "azure-model-router.1.chunks.txt",
    delayMs: 150,
  }]);
  try {
    const res = await postChat(server.url, {
      id: newChatId(),
      model: "openai/gpt-4.1-mini",
      message: userMessage("Qual é a capital da Dinamarca?"),
    }, { jar: new CookieJar() });
    assert.equal(res.status, 200);
    assert.deepEqual(deltasOf(await res.text()), { count: 4, text: "Capital of Denmark." });
  } finally {
    await close();
  }
});

Deno.test("sse: no heartbeat while chunks keep flowing", async () => {
  const { server, close } = await startReplayedApp(
    [{ fixture: "azure-model-router.1.chunks.txt" }],
    {
      services: { heartbeatMs: 1_000 },
    },
  );
  try {
    const res = await postChat(server.url, {
      id: newChatId(),
      model: "openai/gpt-4.1-mini",
      message: userMessage("Qual é a capital da Dinamarca?"),
    }, { jar: new CookieJar() });
    const sse = parseSseText(await res.text());
    assert.equal(sse.comments.length, 0);
    assert.ok(sse.done);
  } finally {
    await close();
  }
});

Deno.test("sse: the first token goes out in one write with the chunks held before it", async () => {
  // The handler's body read in process: its first read is exactly its first write. Over a
  // socket the writes of a busy server reach the client apart, the first token last.
  const replay = startReplayServer([{ fixture: "azure-model-router.1.chunks.txt", delayMs: 20 }]);
  const kv = await Deno.openKv(":memory:");
  try {
    const id = newChatId();
    const { app, services } = await createServerApp({
      env: openaiReplayEnv(replay.url),
      config: testConfig(),
      requestLog: null,
      kv,
    });
    const res = await app(
      new Request("http://127.0.0.1/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://127.0.0.1" },
        body: JSON.stringify({
          id,
          model: "openai/gpt-4.1-mini",
          message: userMessage("Qual é a capital da Dinamarca?"),
        }),
      }),
    );
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const types = parseSseText(first).chunks.map((chunk) => chunk.type);
    assert.equal(types[0], "start");
    // The prefetched search, then the first text.
    assert.ok(types.includes("tool-output-available"), types.join(" "));
    assert.match(types.at(-1)!, /^text-/, types.join(" "));
    while (!(await reader.read()).done) { /* the rest of the answer */ }
    // Saved, and the stream log ended: nothing writes to KV after the test.
    while ((await services.store.loadMessages(id)).length < 2) await sleep(10);
    while (await services.streamLog.active(id)) await sleep(10);
  } finally {
    kv.close();
    await replay.close();
  }
});
