import assert from "node:assert/strict";
import { createModelRegistry } from "@/lib/models/registry.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  parseSseText,
  postChat,
  readSse,
  streamedText,
  testConfig,
  userMessage,
  waitForMessages,
} from "../support/chat_client.ts";
import type { ReplayStep } from "../support/replay_server.ts";
import { startReplayedApp, startTestServer } from "../support/server.ts";

Deno.test("resume: a second tab opened mid-answer follows the same stream to its end; 204 otherwise", async () => {
  const server = await startTestServer({
    config: testConfig(),
    services: { models: createModelRegistry({ env: {}, local: { delayMs: 15 } }) },
  });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      message: userMessage("Quais dados vocês guardam e por quanto tempo?"),
    }, { jar });
    // The first tab keeps reading; a second tab of the same visitor opens the chat mid-answer.
    // (Closing the first tab would stop the answer: a disconnect is a stop, see lib/chat/turn/abort.ts.)
    const firstTab = readSse(res);
    const resumed = await jar.fetch(`${server.url}/api/chat/${id}/stream`);
    assert.equal(resumed.status, 200);
    assert.equal(resumed.headers.get("x-vercel-ai-ui-message-stream"), "v1");
    const read = await readSse(resumed);
    assert.ok(read.done, "the resumed stream ends with [DONE]");
    assert.equal(read.chunks[0].type, "start", "the replay starts from the beginning");
    assert.ok(read.chunks.some((c) => c.type === "finish"));
    const first = await firstTab;
    assert.deepEqual(read.chunks, first.chunks, "both tabs saw the same answer");

    // Another visitor or an unknown chat: 404; the owner's chat with nothing in flight: 204.
    assert.equal((await fetch(`${server.url}/api/chat/${id}/stream`)).status, 404);
    assert.equal((await jar.fetch(`${server.url}/api/chat/${newChatId()}/stream`)).status, 404);
    assert.equal((await jar.fetch(`${server.url}/api/chat/${id}/stream`)).status, 204);
  } finally {
    await server.close();
  }
});

/** Posts a question to the replayed OpenAI model and reads until `deltas` text deltas arrived. */
async function startAndRead(url: string, jar: CookieJar, id: string, deltas: number) {
  const stop = new AbortController();
  const res = await postChat(url, {
    id,
    model: "openai/gpt-4.1-mini",
    message: userMessage("Conte uma história longa."),
  }, { jar, signal: stop.signal });
  assert.equal(res.status, 200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let raw = "";
  while (parseSseText(raw).chunks.filter((c) => c.type === "text-delta").length < deltas) {
    const { done, value } = await reader.read();
    assert.ok(!done, "the stream is still running");
    raw += value;
  }
  return {
    /** Drops the connection, as a phone losing its network does. */
    async drop() {
      stop.abort();
      await reader.cancel().catch(() => {});
    },
  };
}

Deno.test("resume: a dropped connection does not stop the answer; it completes and is saved", async () => {
  const { replay, server, close } = await startReplayedApp([{
    fixture: "openai-text.chunks.txt",
    delayMs: 4,
  }]);
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const turn = await startAndRead(server.url, jar, id, 3);
    await turn.drop();
    const closed = await replay.waitForClose(0, 10_000);
    assert.equal(closed.reason, "completed", "the provider stream ran to its end");
    const saved = await waitForMessages(
      server.services.store,
      id,
      (m) => m[1]?.metadata?.outcome === "finished",
    );
    assert.equal(saved[1].metadata?.finishReason, "stop");
    assert.ok(messageText(saved[1]).length > 200);
  } finally {
    await close();
  }
});

Deno.test("resume: an answer nobody reads for abandonAfterSeconds is aborted; a follower keeps it alive", async () => {
  const { replay, server, close } = await startReplayedApp([
    { fixture: "openai-text.chunks.txt", delayMs: 25 }, // ~7.5 s: outlives the 1 s bound
    { fixture: "openai-text.chunks.txt", delayMs: 8 }, // ~2.4 s, read by a follower
  ], { config: testConfig({ abandonAfterSeconds: 1 }) });
  try {
    const jar = new CookieJar();
    const abandoned = newChatId();
    const first = await startAndRead(server.url, jar, abandoned, 3);
    const droppedAt = performance.now();
    await first.drop();
    const closed = await replay.waitForClose(0, 6_000);
    assert.equal(closed.reason, "client-closed", "the abandoned answer was aborted");
    console.log(`abandoned turn aborted ${(closed.at - droppedAt).toFixed(0)} ms after the drop`);
    const saved = await waitForMessages(
      server.services.store,
      abandoned,
      (m) => m[1]?.metadata?.outcome === "stopped",
    );
    assert.equal(saved[1].metadata?.finishReason, "aborted");

    // The same drop while another tab follows the answer: it runs to its end.
    const followed = newChatId();
    const second = await startAndRead(server.url, jar, followed, 3);
    const tab = await jar.fetch(`${server.url}/api/chat/${followed}/stream`);
    assert.equal(tab.status, 200);
    await second.drop();
    const read = await readSse(tab);
    assert.ok(read.done, "the follower read to [DONE]");
    assert.ok(read.chunks.some((c) => c.type === "finish"));
    assert.equal((await replay.waitForClose(1, 10_000)).reason, "completed");
    const kept = await waitForMessages(
      server.services.store,
      followed,
      (m) => m[1]?.metadata?.outcome === "finished",
    );
    assert.equal(messageText(kept[1]), streamedText(read.chunks));
  } finally {
    await close();
  }
});

/** GETs the chat's stream every 20 ms until it is a 200, or `until()` turns true first. */
async function followOnceRunning(
  url: string,
  jar: CookieJar,
  id: string,
  until: () => boolean,
): Promise<Response | null> {
  while (!until()) {
    const res = await jar.fetch(`${url}/api/chat/${id}/stream`);
    if (res.status === 200) return res;
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, 20));
  }
  return null;
}

/**
 * A visitor's second question, whose provider answers as `second` says (slowly), and a
 * second tab of the same visitor following it as soon as it runs. `answeredFirst`: whether
 * the question's own response came before the follower found the answer running.
 */
async function followSecondQuestion(second: ReplayStep) {
  const app = await startReplayedApp([{ fixture: "openai-text.chunks.txt" }, second]);
  try {
    return { ...app, ...await startFollowing(app.server.url) };
  } catch (error) {
    await app.close();
    throw error;
  }
}

async function startFollowing(url: string) {
  const jar = new CookieJar();
  const model = "openai/gpt-4.1-mini";
  // The first question gives the visitor its cookie, so the second tab can follow.
  await readSse(
    await postChat(url, { id: newChatId(), model, message: userMessage("Oi") }, { jar }),
  );
  const id = newChatId();
  let answered = false;
  const posted = postChat(url, { id, model, message: userMessage("Conte uma história.") }, { jar })
    .then((res) => (answered = true, res));
  const tab = await followOnceRunning(url, jar, id, () => answered);
  return { jar, id, posted, tab, answeredFirst: answered };
}

Deno.test("resume: a tab opened before the first token follows the answer from its start", async () => {
  // The provider takes 1.5 s to answer: the question is saved, nothing streamed yet.
  const { tab, answeredFirst, posted, close } = await followSecondQuestion({
    fixture: "openai-text.chunks.txt",
    headersDelayMs: 1_500,
    delayMs: 2,
  });
  try {
    assert.ok(tab, "the second tab found the answer running before its first token");
    assert.equal(answeredFirst, false);
    const [followed, first] = await Promise.all([readSse(tab), posted.then(readSse)]);
    assert.ok(followed.done, "the follower read to [DONE]");
    assert.deepEqual(followed.chunks, first.chunks, "both tabs saw the same answer");
    assert.ok(streamedText(followed.chunks).length > 200);
  } finally {
    await close();
  }
});

Deno.test("resume: a tab following before the first token ends when the provider fails", async () => {
  const { server, jar, id, tab, posted, close } = await followSecondQuestion({
    body: '{"error":{"message":"overloaded"}}',
    status: 400,
    headersDelayMs: 800,
  });
  try {
    assert.ok(tab, "the second tab found the answer running");
    const failed = await posted;
    assert.equal(failed.status, 502);
    await failed.body?.cancel();
    // The follower ends with the turn, not when the log goes stale.
    const followed = await readSse(tab);
    assert.ok(followed.done, "the follower read to [DONE]");
    assert.equal(streamedText(followed.chunks), "");
    assert.equal((await jar.fetch(`${server.url}/api/chat/${id}/stream`)).status, 204);
    const saved = await waitForMessages(
      server.services.store,
      id,
      (m) => m[1]?.metadata?.outcome === "failed",
    );
    assert.equal(saved.length, 2);
  } finally {
    await close();
  }
});

Deno.test("resume: a stop from another tab before the first token stops the model call", async () => {
  const { server, jar, id, tab, posted, close } = await followSecondQuestion({
    fixture: "openai-text.chunks.txt",
    headersDelayMs: 5_000,
  });
  try {
    assert.ok(tab, "the answer runs before its first token");
    const stop = await jar.fetch(`${server.url}/api/chat/${id}/stop`, { method: "POST" });
    assert.equal(stop.status, 202);
    await stop.body?.cancel();
    const res = await posted;
    // The model call was aborted (the replay server cannot see that close: the request body
    // is over the 1 KB it notices closes for, see tests/support/replay_server.ts).
    assert.equal(res.status, 204, "stopped before any content");
    assert.ok((await readSse(tab)).done, "the follower ends too");
    const saved = await waitForMessages(
      server.services.store,
      id,
      (m) => m[1]?.metadata?.outcome === "stopped",
    );
    assert.equal(saved.length, 2);
  } finally {
    await close();
  }
});
