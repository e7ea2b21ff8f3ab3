/**
 * The chat turn with no HTTP at all: `runChatTurn` over the app's real services (in-memory
 * KV, the built search index, the offline model or a replayed provider), its chunks into
 * an array sink.
 */
import assert from "node:assert/strict";
import type { UIMessageChunk } from "ai";
import { HttpError } from "@/lib/http/errors.ts";
import { createServerApp } from "@/lib/server.ts";
import type { StreamEndRecord } from "@/lib/store/stream_keys.ts";
import {
  newChatId,
  testConfig,
  userMessage,
  waitForMessages,
} from "@/tests/support/chat_client.ts";
import { startReplayServer } from "@/tests/support/replay_server.ts";
import { openaiReplayEnv } from "@/tests/support/ui.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { type ChatTurnInput, runChatTurn, type TurnDeps, type TurnSink } from "./run.ts";

const QUESTION = "What is Harmony Day and when is it celebrated?";

/** The app's services over a fresh in-memory KV; no server is started. */
async function services(env: Record<string, string | undefined> = {}) {
  const kv = await Deno.openKv(":memory:");
  const { services } = await createServerApp({ env, kv, config: testConfig(), requestLog: null });
  await services.models.ready(); // what the chat stack does before the first turn
  return { deps: services as TurnDeps, kv, close: () => kv.close() };
}

function input(chatId: string, text: string, more: Partial<ChatTurnInput> = {}): ChatTurnInput {
  return {
    request: { id: chatId, trigger: "submit-message", message: userMessage(text) },
    visitor: { id: "visitor-1", setCookie: null },
    ip: "192.0.2.1",
    locale: "en",
    origin: "http://site.test",
    startedAt: Date.now(),
    ...more,
  } as ChatTurnInput;
}

/** A sink that keeps every chunk, as a test reads a stream. */
function arraySink() {
  const chunks: UIMessageChunk[] = [];
  let open = true;
  const sink: TurnSink = {
    sendJson: (json) => void chunks.push(JSON.parse(json)),
    sendJsonAll: (jsons) => jsons.forEach((json) => chunks.push(JSON.parse(json))),
    send: (chunk) => void chunks.push(chunk),
    close: () => void (open = false),
    get open() {
      return open;
    },
  };
  return { sink, chunks, closed: () => !open };
}

/**
 * The end records of every stream the log holds, once there is at least one: the turn ends its
 * log after the answer is saved, without waiting (a follower only needs it eventually).
 */
async function streamEnds(kv: Deno.Kv, timeoutMs = 5_000): Promise<StreamEndRecord[]> {
  const until = performance.now() + timeoutMs;
  while (true) {
    const ends: StreamEndRecord[] = [];
    for await (const entry of kv.list<{ k?: string }>({ prefix: ["stream"] })) {
      if (entry.key[0] === "stream" && entry.value?.k === "e") {
        ends.push(entry.value as StreamEndRecord);
      }
    }
    if (ends.length || performance.now() > until) return ends;
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test("runChatTurn: the offline model answers with sources returned as data, saved as finished", async () => {
  const { deps, kv, close } = await services();
  try {
    const chatId = newChatId();
    const turn = await runChatTurn(input(chatId, QUESTION), deps);
    assert.equal(turn.start, "content");
    const out = arraySink();
    await turn.pipeTo(out.sink);
    const result = await turn.result;
    assert.ok(out.closed(), "the sink is closed once the answer is saved");
    assert.equal(result.outcome, "finished");
    assert.equal(result.modelId, "local");
    assert.ok(result.sources.length > 0, "the search numbered passages");
    // The sources streamed are exactly those the result returns, in order.
    const streamed = out.chunks.flatMap((c) =>
      c.type === "source-url" ? [{ n: Number(c.sourceId), url: c.url, title: c.title }] : []
    );
    assert.deepEqual(streamed, [...result.sources]);
    assert.ok(out.chunks.some((c) => c.type === "text-delta"));
    assert.equal(out.chunks.at(-1)?.type, "finish");
    assert.equal(await turn.saved, true);
    const saved = await waitForMessages(deps.store, chatId, (m) => m.length === 2);
    const answer = saved[1] as ChatMessage;
    assert.equal(answer.metadata?.outcome, "finished");
    assert.equal(answer.parts.filter((p) => p.type === "source-url").length, result.sources.length);
    assert.deepEqual((await streamEnds(kv)).map((e) => e.outcome), ["finished"]);
  } finally {
    close();
  }
});

Deno.test("runChatTurn: another visitor's chat is refused before anything streams", async () => {
  const { deps, close } = await services();
  try {
    const chatId = newChatId();
    const first = await runChatTurn(input(chatId, QUESTION), deps);
    await first.pipeTo(arraySink().sink);
    await first.saved;
    await assert.rejects(
      runChatTurn(input(chatId, "Oi", { visitor: { id: "visitor-2", setCookie: null } }), deps),
      (error: unknown) => error instanceof HttpError && error.code === "not_found",
    );
  } finally {
    close();
  }
});

Deno.test("runChatTurn: a visitor gone before the first token: no stream, stopped, a new chat removed", async () => {
  const { deps, kv, close } = await services();
  try {
    const chatId = newChatId();
    const gone = new AbortController();
    gone.abort();
    const turn = await runChatTurn(
      input(chatId, QUESTION, {
        signal: gone.signal,
        visitor: { id: "visitor-new", setCookie: "visitor=new" },
      }),
      deps,
    );
    assert.equal(turn.start, "gone");
    assert.equal(turn.setCookie, "visitor=new");
    await assert.rejects(turn.pipeTo(arraySink().sink));
    assert.equal((await turn.result).outcome, "stopped");
    assert.equal(await turn.saved, true);
    assert.equal(await deps.store.getChat(chatId), null, "nobody holds its cookie");
    assert.deepEqual((await streamEnds(kv)).map((e) => e.outcome), ["stopped"]);
  } finally {
    close();
  }
});

Deno.test("runChatTurn: a provider failing before any content fails the turn, in one word everywhere", async () => {
  const replay = startReplayServer([{ fixture: "openai-text.chunks.txt", failAfterChunks: 0 }]);
  const { deps, kv, close } = await services(openaiReplayEnv(replay.url));
  try {
    const chatId = newChatId();
    const request = {
      id: chatId,
      trigger: "submit-message",
      message: userMessage("Oi"),
      model: "openai/gpt-4.1-mini",
    } as ChatTurnInput["request"];
    const turn = await runChatTurn(input(chatId, "Oi", { request }), deps);
    assert.equal(turn.start, "failed");
    assert.equal((await turn.result).outcome, "failed");
    await turn.saved;
    const saved = await waitForMessages(
      deps.store,
      chatId,
      (m) => m[1]?.metadata?.outcome === "failed",
    );
    assert.equal(saved[1].metadata?.outcome, "failed");
    // The stream log says it the same way (it once said "error" where the answer said "failed").
    assert.deepEqual((await streamEnds(kv)).map((e) => e.outcome), ["failed"]);
  } finally {
    close();
    await replay.close();
  }
});
