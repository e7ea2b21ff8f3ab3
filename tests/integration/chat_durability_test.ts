/**
 * Nothing a visitor typed is lost, and nothing deleted comes back: the question is saved
 * when the turn starts (a kill -9 mid-answer keeps it, and the answer shows as cut off),
 * concurrent turns on one chat keep every message, a delete during a stream stays deleted,
 * the first writer owns a chat id, every way a turn ends is saved with its outcome, and
 * tokens count against the daily budget.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { spawnAppProcess } from "../support/app_process.ts";
import {
  type RecordedRequest,
  type ReplayStep,
  startReplayServer,
} from "../support/replay_server.ts";
import { startReplayedApp } from "../support/server.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
  waitForMessages,
} from "../support/chat_client.ts";
import { chatScript, openaiChatStream, openaiReplayEnv } from "../support/ui.ts";
import { awayFromMinuteTurn } from "../support/minute.ts";

const MODEL = "openai/gpt-4.1-mini";
const SLOW = "Resposta lenta, em muitos pedaços, que demora para terminar de chegar.";
const FAST = "Resposta rápida.";

/** The last question's text of a provider request. */
function lastQuestion(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const last = messages.findLast((m) => m.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
}

/** Slow answers for questions that say "devagar", fast ones otherwise. */
const titles = chatScript([]) as (request: RecordedRequest) => ReplayStep;
function pacedScript(request: RecordedRequest): ReplayStep {
  if ((request.body as { stream?: boolean }).stream !== true) return titles(request);
  return lastQuestion(request.body).includes("devagar")
    ? { body: openaiChatStream(SLOW, 4), delayMs: 40 }
    : { body: openaiChatStream(FAST) };
}

/** Starts a turn and reads until its first text arrives; returns the response being read. */
async function firstWords(url: string, jar: CookieJar, id: string, text: string) {
  const res = await postChat(url, { id, model: MODEL, message: userMessage(text) }, { jar });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let raw = "";
  while (!raw.includes('"text-delta"')) {
    const { done, value } = await reader.read();
    assert.ok(!done, "the stream ended before its first words");
    raw += decoder.decode(value);
  }
  return {
    /** Reads the rest of the stream to its end. */
    async finish() {
      while (!(await reader.read()).done);
    },
  };
}

Deno.test("durability: two concurrent turns on one chat keep all four messages", async () => {
  const { server, close } = await startReplayedApp(pacedScript);
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const slow = userMessage("Responda devagar, por favor.");
    const fast = userMessage("E agora rápido.");
    // Tab A asks first and gets the slow answer; tab B's fast turn ends while A still streams.
    const a = await firstWords(server.url, jar, id, "Oi");
    await a.finish();
    const tabA = postChat(server.url, { id, model: MODEL, message: slow }, { jar }).then(readSse);
    await new Promise((r) => setTimeout(r, 100));
    const tabB = await readSse(
      await postChat(server.url, { id, model: MODEL, message: fast }, { jar }),
    );
    assert.ok(tabB.done);
    assert.ok((await tabA).done);
    const saved = await waitForMessages(
      server.services.store,
      id,
      (m) =>
        m.length === 6 && m.every((x) => x.role === "user" || x.metadata?.outcome === "finished"),
    );
    assert.deepEqual(saved.map((m) => m.role), [
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const texts = saved.map(messageText);
    assert.ok(texts.includes("Responda devagar, por favor."));
    assert.ok(texts.includes("E agora rápido."));
    assert.ok(texts.includes(SLOW), "the slow answer is kept");
    assert.equal(texts.filter((t) => t === FAST).length, 2, "both fast answers are kept");
  } finally {
    await close();
  }
});

for (const how of ["the chat", "all my data"] as const) {
  Deno.test(`durability: deleting ${how} while an answer streams stays deleted`, async () => {
    const { server, close } = await startReplayedApp(pacedScript);
    try {
      const jar = new CookieJar();
      const id = newChatId();
      const turn = await firstWords(server.url, jar, id, "Conte devagar como funciona.");
      const path = how === "the chat" ? `/api/chats/${id}` : "/api/me";
      const deleted = await jar.fetch(`${server.url}${path}`, { method: "DELETE" });
      assert.ok(deleted.ok, `deleted: ${deleted.status}`);
      await deleted.body?.cancel();
      await turn.finish();
      // The answer's save ran after the delete; give a stray write time to land.
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(await server.services.store.getChat(id), null);
      assert.deepEqual(await server.services.store.loadMessages(id), []);
    } finally {
      await close();
    }
  });
}

Deno.test("durability: the first writer owns a chat id while its first answer streams", async () => {
  const { server, close } = await startReplayedApp(pacedScript);
  try {
    const owner = new CookieJar();
    const other = new CookieJar();
    const id = newChatId();
    const turn = await firstWords(server.url, owner, id, "Explique devagar.");
    const res = await postChat(server.url, {
      id,
      model: MODEL,
      message: userMessage("Esta conversa é minha agora."),
    }, { jar: other });
    assert.equal(res.status, 404);
    await res.body?.cancel();
    await turn.finish();
    const saved = await waitForMessages(server.services.store, id, (m) => m.length === 2);
    assert.equal(messageText(saved[0]), "Explique devagar.");
  } finally {
    await close();
  }
});

Deno.test("durability: an error the provider sends inside its stream fails the answer, with its text kept", async () => {
  const body = openaiChatStream(SLOW, 4).slice(0, 6);
  body.push(
    `data: ${
      JSON.stringify({ error: { message: "Rate limit reached", type: "rate_limit_error" } })
    }\n\n`,
    "data: [DONE]\n\n",
  );
  const { server, close } = await startReplayedApp(chatScript([{ body }]));
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const res = await postChat(server.url, { id, model: MODEL, message: userMessage("Oi") }, {
      jar,
    });
    assert.equal(res.status, 200);
    const read = await readSse(res);
    assert.ok(read.chunks.some((c) => c.type === "error"), "the stream reports the error");
    const finish = read.chunks.find((c) => c.type === "finish") as
      | { messageMetadata?: { outcome?: string } }
      | undefined;
    assert.notEqual(
      finish?.messageMetadata?.outcome,
      "finished",
      "the live answer is not complete",
    );
    const [, answer] = await waitForMessages(
      server.services.store,
      id,
      (m) => m[1]?.metadata?.outcome !== undefined && m[1]?.metadata?.outcome !== "interrupted",
    );
    assert.equal(answer.metadata?.outcome, "failed");
    assert.ok(messageText(answer).length > 0, "the partial answer is kept");
  } finally {
    await close();
  }
});

Deno.test("durability: an answer cut off by an upstream error is saved as failed, not as complete", async () => {
  const { server, close } = await startReplayedApp(
    chatScript([{ body: openaiChatStream(SLOW, 4), failAfterChunks: 6 }]),
  );
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const res = await postChat(server.url, { id, model: MODEL, message: userMessage("Oi") }, {
      jar,
    });
    assert.equal(res.status, 200);
    const read = await readSse(res);
    assert.ok(read.chunks.some((c) => c.type === "error"), "the stream reports the error");
    const [, answer] = await waitForMessages(
      server.services.store,
      id,
      (m) => m[1]?.metadata?.outcome === "failed",
    );
    assert.ok(messageText(answer).length > 0, "the partial answer is kept");
    assert.equal(answer.metadata?.finishReason, "error");
    for (const part of answer.parts) {
      assert.notEqual((part as { state?: string }).state, "streaming", "no part is left streaming");
    }
  } finally {
    await close();
  }
});

Deno.test("durability: a new visitor who leaves before the first token leaves no chat behind", async () => {
  const { server, close } = await startReplayedApp(
    chatScript([{ body: openaiChatStream(FAST), headersDelayMs: 400 }]),
  );
  try {
    const id = newChatId();
    const leave = new AbortController();
    const pending = postChat(server.url, { id, model: MODEL, message: userMessage("Oi") }, {
      signal: leave.signal,
    }).catch(() => null);
    await new Promise((r) => setTimeout(r, 150));
    leave.abort();
    await pending;
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(await server.services.store.getChat(id), null);
    // The same tab can still use the id: the chat was not taken by a visitor nobody holds.
    const again = await readSse(
      await postChat(server.url, { id, model: MODEL, message: userMessage("Oi de novo") }),
    );
    assert.ok(again.done);
  } finally {
    await close();
  }
});

Deno.test("durability: tokens count against the daily budget", async () => {
  const big = { requestsPerMinute: 1000, tokensPerDay: 1_000_000 };
  const { server, close } = await startReplayedApp(chatScript([{ body: openaiChatStream(FAST) }]), {
    config: testConfig({
      limits: { visitor: { requestsPerMinute: 1000, tokensPerDay: 40 }, ip: big },
    }),
  });
  try {
    const jar = new CookieJar();
    const first = await readSse(
      await postChat(server.url, { id: newChatId(), model: MODEL, message: userMessage("Oi") }, {
        jar,
      }),
    );
    assert.ok(first.done);
    // Counting happens after the stream; the next turn must see it.
    let status = 0;
    for (let i = 0; i < 50 && status !== 429; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const res = await postChat(server.url, {
        id: newChatId(),
        model: MODEL,
        message: userMessage("De novo"),
      }, { jar });
      status = res.status;
      await res.body?.cancel();
    }
    assert.equal(status, 429, "the 50 tokens of the first turn exhausted a budget of 40");
  } finally {
    await close();
  }
});

Deno.test("durability: a stopped answer's tokens count against the daily budget too", async () => {
  const big = { requestsPerMinute: 1000, tokensPerDay: 1_000_000 };
  const { server, close } = await startReplayedApp(pacedScript, {
    config: testConfig({
      limits: { visitor: { requestsPerMinute: 1000, tokensPerDay: 40 }, ip: big },
    }),
  });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    // Stopped after the first words: the provider never sent its usage.
    await firstWords(server.url, jar, id, "Conte devagar uma história, com todos os detalhes.");
    const stop = await jar.fetch(`${server.url}/api/chat/${id}/stop`, { method: "POST" });
    await stop.body?.cancel();
    await waitForMessages(server.services.store, id, (m) => m[1]?.metadata?.outcome === "stopped");
    // The visitor's token counter for today (lib/store/limits.ts) takes the stopped turn.
    const visitor = (await server.services.store.getChat(id))!.visitorId;
    const day = Math.floor(Date.now() / 86_400_000);
    let counted = 0n;
    for (let i = 0; i < 100 && counted === 0n; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const entry = await server.services.kv.get<Deno.KvU64 | bigint>([
        "rate",
        "tok",
        "visitor",
        visitor,
        day,
      ]);
      const value = entry.value;
      counted = value === null ? 0n : typeof value === "bigint" ? value : value.value;
    }
    assert.ok(counted > 40n, `the stopped turn counted ${counted} tokens`);
    const res = await postChat(server.url, {
      id: newChatId(),
      model: MODEL,
      message: userMessage("De novo"),
    }, { jar });
    await res.body?.cancel();
    const status = res.status;
    assert.equal(status, 429, "the stopped turn's prompt and words used up a budget of 40");
  } finally {
    await close();
  }
});

Deno.test({
  name: "durability: kill -9 mid-answer keeps the question; the answer shows as cut off",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const replay = startReplayServer(pacedScript);
    const dir = await Deno.makeTempDir();
    const spawn = () => spawnAppProcess(`${dir}/kv.sqlite`, openaiReplayEnv(replay.url));
    let server = await spawn();
    try {
      const jar = new CookieJar();
      const id = newChatId();
      await firstWords(server.url, jar, id, "Conte devagar uma história.");
      await server.kill();
      server = await spawn();
      const res = await jar.fetch(`${server.url}/api/chats/${id}`);
      assert.equal(res.status, 200);
      const { messages } = await res.json() as { messages: ChatMessage[] };
      assert.equal(messageText(messages[0]), "Conte devagar uma história.");
      assert.equal(messages[1]?.role, "assistant");
      assert.equal(messages[1]?.metadata?.outcome, "interrupted");
      const page = await (await jar.fetch(`${server.url}/c/${id}`)).text();
      assert.match(page, /cortada antes do fim|cut off before it finished/);
    } finally {
      await server.kill();
      await replay.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("limits: /api/title holds the same request limit as the chat, and counts its tokens", async () => {
  const big = { requestsPerMinute: 1000, tokensPerDay: 1_000_000 };
  const { server, replay, close } = await startReplayedApp(
    chatScript([{ body: openaiChatStream(FAST) }]),
    {
      config: testConfig({
        limits: { visitor: { requestsPerMinute: 3, tokensPerDay: 1_000_000 }, ip: big },
      }),
    },
  );
  try {
    await awayFromMinuteTurn();
    const jar = new CookieJar();
    const id = newChatId();
    assert.ok(
      (await readSse(
        await postChat(server.url, {
          id,
          model: MODEL,
          // A question: a greeting alone gets no title, so no model call to limit.
          message: userMessage("Quais dados vocês guardam?"),
        }, { jar }),
      )).done,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await jar.fetch(`${server.url}/api/title`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id }),
      });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    assert.deepEqual(statuses, [200, 200, 429]);
    const titleCalls = replay.requests.filter((r) =>
      (r.body as { stream?: boolean }).stream !== true
    );
    assert.equal(titleCalls.length, 2, "the limited request never reached the provider");
  } finally {
    await close();
  }
});
