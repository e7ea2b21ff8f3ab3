/**
 * Stopping an answer: the client POSTs /api/chat/:id/stop and aborts its fetch (a dropped
 * connection alone does not stop an answer that streams; see chat_resume_test.ts); the stop
 * reaches the provider's HTTP connection (the replay server sees the client close it before the stream ends),
 * and the partial answer is saved with finishReason "aborted" and survives a reload.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { startReplayedApp } from "../support/server.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  parseSseText,
  postChat,
  streamedText,
  userMessage,
  waitForMessages,
} from "../support/chat_client.ts";

/** The UI's stop button: the explicit stop, answered 202 while the answer runs. */
async function stopChat(base: string, jar: CookieJar, id: string) {
  const res = await jar.fetch(`${base}/api/chat/${id}/stop`, { method: "POST" });
  assert.equal(res.status, 202);
  await res.body?.cancel();
}

Deno.test("abort: a stopped answer closes the provider connection and is saved as aborted", async () => {
  const { replay, server, close } = await startReplayedApp([{
    fixture: "openai-text.chunks.txt",
    delayMs: 40,
  }]);
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const question = userMessage("Conte uma história longa.");
    const stop = new AbortController();
    const res = await postChat(server.url, {
      id,
      trigger: "submit-message",
      model: "openai/gpt-4.1-mini",
      message: question,
    }, { jar, signal: stop.signal });
    assert.equal(res.status, 200);

    // Read until a few text deltas arrived, then stop like the UI's stop button.
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let raw = "";
    while (
      parseSseText(raw.slice(0, raw.lastIndexOf("\n\n") + 2)).chunks.filter((c) =>
        c.type === "text-delta"
      ).length < 5
    ) {
      const { done, value } = await reader.read();
      assert.ok(!done, "the stream is still running");
      raw += value;
    }
    const seen = streamedText(parseSseText(raw.slice(0, raw.lastIndexOf("\n\n") + 2)).chunks);
    await stopChat(server.url, jar, id);
    stop.abort();
    await reader.read().catch(() => {});
    reader.releaseLock();

    const close = await replay.waitForClose(0, 2000);
    assert.equal(close.reason, "client-closed", "the provider stream did not run to its end");
    assert.ok(close.chunksSent < 100, `only part of the stream was sent (${close.chunksSent})`);

    const saved = await waitForMessages(
      server.services.store,
      id,
      (m) => m.length === 2 && m[1].metadata?.finishReason === "aborted",
    );
    assert.deepEqual(saved[0], question);
    const partial = messageText(saved[1]);
    assert.ok(partial.startsWith(seen), "the saved partial holds what the visitor saw");
    assert.ok(partial.length > 0);
    assert.equal(saved[1].metadata?.model, "openai/gpt-4.1-mini");

    // A reload shows the partial answer.
    const page = await jar.fetch(`${server.url}/c/${id}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes(question.parts[0].type === "text" ? question.parts[0].text : ""));
    // The first words of the answer ("**Holiday Name:**") as rendered text.
    assert.match(html, /Holiday/);

    // And a second load of the store after a pause still has it (nothing rewrites it later).
    await new Promise((r) => setTimeout(r, 100));
    const again = await server.services.store.loadMessages(id) as ChatMessage[];
    assert.deepEqual(again, saved);
  } finally {
    await close();
  }
});

Deno.test("abort: the next turn after a stopped answer sees it in history", async () => {
  const { replay, server, close } = await startReplayedApp([
    { fixture: "openai-text.chunks.txt", delayMs: 30 },
    { fixture: "azure-model-router.1.chunks.txt" },
  ]);
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const stop = new AbortController();
    const res = await postChat(server.url, {
      id,
      trigger: "submit-message",
      model: "openai/gpt-4.1-mini",
      message: userMessage("primeira"),
    }, { jar, signal: stop.signal });
    const reader = res.body!.getReader();
    await reader.read();
    await stopChat(server.url, jar, id);
    stop.abort();
    await reader.read().catch(() => {});
    reader.releaseLock();
    await waitForMessages(server.services.store, id, (m) => m[1]?.metadata?.outcome === "stopped");

    const next = await postChat(server.url, {
      id,
      trigger: "submit-message",
      model: "openai/gpt-4.1-mini",
      message: userMessage("segunda"),
    }, { jar });
    assert.equal(next.status, 200);
    await next.text();
    const sent = replay.requests[1].body as { messages: Array<{ role: string; content: unknown }> };
    // Each answer begins with the turn's own site search (retrieval "prefetch"): a tool call
    // and its result; the stopped answer's words follow its search.
    assert.deepEqual(
      sent.messages.map((m) => m.role),
      ["system", "user", "assistant", "tool", "assistant", "user", "assistant", "tool"],
    );
    assert.equal(typeof sent.messages[4].content, "string");
    assert.ok((sent.messages[4].content as string).length > 0, "the stopped answer's words");
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    assert.equal(saved.length, 4);
    assert.equal(messageText(saved[3]), "Capital of Denmark.");
  } finally {
    await close();
  }
});

Deno.test("abort: a stop before the first token keeps the question, and the chat goes on", async () => {
  const { replay, server, close } = await startReplayedApp([
    { fixture: "openai-text.chunks.txt", headersDelayMs: 250 },
    { fixture: "azure-model-router.1.chunks.txt" },
  ]);
  try {
    const jar = new CookieJar();
    // A first answered turn in another chat gives the visitor its cookie.
    const warm = await postChat(server.url, {
      id: newChatId(),
      model: "local",
      message: userMessage("Quais dados vocês guardam?"),
    }, { jar });
    await warm.text();
    assert.ok(jar.cookies.has("visitor"));

    const id = newChatId();
    const question = userMessage("Uma pergunta interrompida");
    const stop = new AbortController();
    const pending = postChat(server.url, {
      id,
      model: "openai/gpt-4.1-mini",
      message: question,
    }, { jar, signal: stop.signal });
    while (replay.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await assert.rejects(pending, (e: Error) => e.name === "AbortError");

    const saved = await waitForMessages(
      server.services.store,
      id,
      (m) => m[1]?.metadata?.outcome === "stopped",
    );
    assert.deepEqual(saved[0], question);
    assert.equal(saved[1].role, "assistant");
    assert.equal(saved[1].metadata?.finishReason, "aborted");
    assert.equal(messageText(saved[1]), "");

    const next = await postChat(server.url, {
      id,
      model: "openai/gpt-4.1-mini",
      message: userMessage("De novo"),
    }, { jar });
    assert.equal(next.status, 200);
    await next.text();
    const after = await server.services.store.loadMessages(id) as ChatMessage[];
    assert.deepEqual(after.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
    assert.equal(messageText(after[3]), "Capital of Denmark.");
  } finally {
    await close();
  }
});

Deno.test("abort: POST /api/chat/:id/stop stops the model while the visitor still reads; only the owner may", async () => {
  const { replay, server, close } = await startReplayedApp([{
    fixture: "openai-text.chunks.txt",
    delayMs: 40,
  }]);
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      trigger: "submit-message",
      model: "openai/gpt-4.1-mini",
      message: userMessage("Conte uma história longa."),
    }, { jar });
    assert.equal(res.status, 200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let raw = "";
    while (parseSseText(raw).chunks.filter((c) => c.type === "text-delta").length < 3) {
      const { done, value } = await reader.read();
      assert.ok(!done, "the stream is still running");
      raw += value;
    }
    const stranger = await fetch(`${server.url}/api/chat/${id}/stop`, { method: "POST" });
    assert.equal(stranger.status, 404, "another visitor cannot stop it");
    await stranger.body?.cancel();
    const foreign = await jar.fetch(`${server.url}/api/chat/${id}/stop`, {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    assert.equal(foreign.status, 403, "a foreign origin cannot stop it");
    await foreign.body?.cancel();

    const stoppedAt = performance.now();
    const stop = await jar.fetch(`${server.url}/api/chat/${id}/stop`, { method: "POST" });
    assert.equal(stop.status, 202);
    assert.deepEqual(await stop.json(), { stopped: true });
    const closed = await replay.waitForClose(0, 5000);
    assert.equal(closed.reason, "client-closed", "the provider stream did not run to its end");
    console.log(`stop-to-provider-disconnect: ${(closed.at - stoppedAt).toFixed(1)} ms`);
    // The visitor's stream ends on its own, with the answer marked stopped.
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      raw += value;
    }
    const chunks = parseSseText(raw).chunks;
    assert.ok(chunks.some((c) => c.type === "abort" || c.type === "finish"), "the stream ended");
    const saved = await waitForMessages(
      server.services.store,
      id,
      (m) => m.length === 2 && m[1].metadata?.finishReason === "aborted",
    );
    assert.ok(messageText(saved[1]).length > 0);
    const after = await jar.fetch(`${server.url}/api/chat/${id}/stop`, { method: "POST" });
    assert.equal(after.status, 204, "nothing runs any more");
  } finally {
    await close();
  }
});
