/**
 * The real provider adapters through POST /api/chat, against the replay server:
 * streamed text arrives and is saved, an upstream HTTP error before any token is
 * a JSON 502 (not SSE), and a failure inside the stream after text started is an
 * `error` chunk with the partial answer kept in KV.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import type { Env } from "@/lib/models/types.ts";
import { startTestServer } from "../support/server.ts";
import { openaiReplayEnv } from "../support/ui.ts";
import { fixtureChunks, type ReplayStep, startReplayServer } from "../support/replay_server.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  postChat,
  readSse,
  streamedText,
  testConfig,
  userMessage,
  waitForMessages,
} from "../support/chat_client.ts";

/** The text a Chat Completions fixture streams (its `delta.content` pieces). */
async function chatCompletionsText(fixture: string): Promise<string> {
  const { chunks } = await fixtureChunks(fixture);
  return chunks.flatMap((c) => {
    const data = c.slice("data: ".length).trim();
    if (data === "[DONE]") return [];
    return (JSON.parse(data).choices ?? []).map((ch: { delta?: { content?: string } }) =>
      ch.delta?.content ?? ""
    );
  }).join("");
}

/** The events of a Responses API fixture, framed, without a `[DONE]`. */
async function responsesEvents(fixture: string): Promise<string[]> {
  const { chunks } = await fixtureChunks(fixture, "google"); // no [DONE] added
  return chunks;
}

interface Setup {
  env: (replayUrl: string) => Env;
  model: string;
}

const OPENAI_CHAT: Setup = {
  env: openaiReplayEnv,
  model: "openai/gpt-4.1-mini",
};
const OPENAI_RESPONSES: Setup = {
  env: (url) => ({ OPENAI_API_KEY: "test", OPENAI_BASE_URL: `${url}/v1` }),
  model: "openai/gpt-4.1-mini",
};
const GOOGLE: Setup = {
  env: (url) => ({ GOOGLE_GENERATIVE_AI_API_KEY: "test", GOOGLE_BASE_URL: `${url}/v1beta` }),
  model: "google/gemini-2.5-flash",
};
const CEREBRAS: Setup = {
  env: (url) => ({ CEREBRAS_API_KEY: "test", CEREBRAS_BASE_URL: `${url}/v1` }),
  model: "cerebras/gpt-oss-120b",
};

/** Runs one turn against a replay of `steps`; returns the response, the replay and the store. */
async function turn(setup: Setup, steps: ReplayStep[], question = "Olá") {
  const replay = startReplayServer(steps);
  const server = await startTestServer({ env: setup.env(replay.url), config: testConfig() });
  const jar = new CookieJar();
  const id = newChatId();
  const res = await postChat(server.url, {
    id,
    trigger: "submit-message",
    model: setup.model,
    message: userMessage(question),
  }, { jar });
  return {
    res,
    replay,
    server,
    id,
    jar,
    async close() {
      await res.body?.cancel().catch(() => {});
      await server.close();
      await replay.close();
    },
  };
}

Deno.test("providers: OpenAI Chat Completions text streams through the endpoint and is saved", async () => {
  const t = await turn(OPENAI_CHAT, [{ fixture: "openai-text.chunks.txt" }]);
  try {
    assert.equal(t.res.status, 200);
    assert.match(t.res.headers.get("content-type") ?? "", /^text\/event-stream/);
    const sse = await readSse(t.res);
    assert.ok(sse.done, "ends with [DONE]");
    const expected = await chatCompletionsText("openai-text.chunks.txt");
    assert.ok(expected.length > 1000);
    assert.equal(streamedText(sse.chunks), expected);
    // Replayed at wire speed, the 300 deltas come faster than the merge window.
    const deltas = sse.chunks.filter((c) => c.type === "text-delta").length;
    assert.ok(deltas >= 1 && deltas < 100, `deltas merged: ${deltas} chunks`);
    assert.equal(sse.chunks.at(-1)?.type, "finish");

    // The adapter called the replay at <OPENAI_BASE_URL>/chat/completions with the model and tools.
    assert.equal(t.replay.requests.length, 1);
    const call = t.replay.requests[0];
    assert.equal(call.path, "/v1/chat/completions");
    assert.equal(call.headers.authorization, "Bearer test");
    const body = call.body as {
      model: string;
      stream: boolean;
      tools: { function: { name: string } }[];
    };
    assert.equal(body.model, "gpt-4.1-mini");
    assert.equal(body.stream, true);
    assert.deepEqual(body.tools.map((x) => x.function.name), [
      "search_site",
      "create_artifact",
      "sendMessageToOwner",
      "getContactStatus",
    ]);

    const saved = await t.server.services.store.loadMessages(t.id) as ChatMessage[];
    assert.equal(saved.length, 2);
    assert.equal(messageText(saved[1]), expected);
    assert.equal(saved[1].metadata?.model, "openai/gpt-4.1-mini");
    assert.equal(saved[1].metadata?.finishReason, "stop");
    assert.ok((saved[1].metadata?.usage?.totalTokens ?? 0) > 0, "usage from the final chunk");
  } finally {
    await t.close();
  }
});

Deno.test("providers: OpenAI Responses API text (the default OpenAI API)", async () => {
  const t = await turn(OPENAI_RESPONSES, [{ fixture: "azure-text.1.chunks.txt" }]);
  try {
    assert.equal(t.res.status, 200);
    const sse = await readSse(t.res);
    assert.equal(t.replay.requests[0].path, "/v1/responses");
    assert.equal(streamedText(sse.chunks), "Hello");
    const saved = await t.server.services.store.loadMessages(t.id) as ChatMessage[];
    assert.equal(messageText(saved[1]), "Hello");
  } finally {
    await t.close();
  }
});

Deno.test("providers: Google Gemini text", async () => {
  const t = await turn(GOOGLE, [{ fixture: "google-text.chunks.txt" }]);
  try {
    assert.equal(t.res.status, 200);
    const sse = await readSse(t.res);
    assert.match(
      t.replay.requests[0].path,
      /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent/,
    );
    assert.equal(
      streamedText(sse.chunks),
      'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
    );
  } finally {
    await t.close();
  }
});

Deno.test("providers: OpenAI-compatible (Cerebras) text after reasoning", async () => {
  const t = await turn(CEREBRAS, [{ fixture: "xai-text.chunks.txt" }]);
  try {
    assert.equal(t.res.status, 200);
    const sse = await readSse(t.res);
    assert.equal(t.replay.requests[0].path, "/v1/chat/completions");
    assert.equal(streamedText(sse.chunks), "Grok");
    assert.ok(sse.chunks.some((c) => c.type === "reasoning-delta"), "reasoning is streamed");
    const saved = await t.server.services.store.loadMessages(t.id) as ChatMessage[];
    assert.equal(messageText(saved[1]), "Grok");
  } finally {
    await t.close();
  }
});

const UPSTREAM_ERRORS: Array<{ name: string; setup: Setup; step: ReplayStep }> = [
  {
    name: "OpenAI 429 insufficient_quota",
    setup: OPENAI_CHAT,
    step: { fixture: "openai-error.1.json", status: 429 },
  },
  {
    name: "OpenAI 400 unsupported parameter",
    setup: OPENAI_CHAT,
    step: { fixture: "reasoning-model-legacy-parameter-error.json", status: 400 },
  },
  {
    name: "OpenAI Responses 400",
    setup: OPENAI_RESPONSES,
    step: { fixture: "reasoning-model-temperature-error.json", status: 400 },
  },
  {
    name: "Gemini 429 RESOURCE_EXHAUSTED",
    setup: GOOGLE,
    step: { fixture: "google-429-retry-info.json", status: 429 },
  },
  {
    name: "Gemini 400 INVALID_ARGUMENT",
    setup: GOOGLE,
    step: { fixture: "issue-8943-gemini-2.5-flash-error.json", status: 400 },
  },
  {
    name: "OpenAI Responses error event before any text",
    setup: OPENAI_RESPONSES,
    step: { fixture: "openai-error.1.chunks.txt", framing: "google" },
  },
  {
    name: "connection dropped before any text",
    setup: OPENAI_CHAT,
    step: { fixture: "openai-text.chunks.txt", failAfterChunks: 0 },
  },
];

for (const { name, setup, step } of UPSTREAM_ERRORS) {
  Deno.test(`providers: ${name} → JSON 502 upstream_error before any stream`, async () => {
    const t = await turn(setup, [step]);
    try {
      assert.equal(t.res.status, 502);
      assert.match(t.res.headers.get("content-type") ?? "", /^application\/json/);
      assert.equal(t.res.headers.get("x-vercel-ai-ui-message-stream"), null);
      const body = await t.res.json();
      assert.equal(body.error.code, "upstream_error");
      assert.equal(typeof body.error.message, "string");
      assert.doesNotMatch(
        body.error.message,
        /quota|Unsupported|RESOURCE|Penalty/,
        "no upstream details leak",
      );
      assert.equal(t.replay.requests.length, 1, "maxRetries 0: no retry");
      // The question is kept (saved when the turn started); the answer is marked failed,
      // and the cookie comes with the error so a new visitor can retry in the same chat.
      const saved = await waitForMessages(
        t.server.services.store,
        t.id,
        (m) => m[1]?.metadata?.outcome === "failed",
      );
      assert.equal(saved[0].role, "user");
      assert.equal(messageText(saved[1]), "");
    } finally {
      await t.close();
    }
  });
}

Deno.test("providers: an error event inside the stream after text started → error chunk, partial kept", async () => {
  // The Responses lifecycle of azure-text up to the "Hello" delta, then the recorded
  // insufficient_quota error event and response.failed.
  const text = await responsesEvents("azure-text.1.chunks.txt");
  const deltaAt = text.findIndex((e) => e.includes('"response.output_text.delta"'));
  assert.ok(deltaAt > 0);
  const error = await responsesEvents("openai-error.1.chunks.txt");
  const body = [...text.slice(0, deltaAt + 1), ...error.slice(2)];
  const t = await turn(OPENAI_RESPONSES, [{
    body,
    headers: { "content-type": "text/event-stream" },
  }]);
  try {
    assert.equal(t.res.status, 200);
    const sse = await readSse(t.res);
    assert.equal(streamedText(sse.chunks), "Hello");
    const errors = sse.chunks.filter((c) => c.type === "error");
    assert.equal(errors.length, 1, JSON.stringify(sse.chunks));
    assert.doesNotMatch(JSON.stringify(errors), /quota/, "the provider's message is not shown");
    assert.ok(sse.done);

    const saved = await waitForMessages(t.server.services.store, t.id, (m) => m.length === 2);
    assert.equal(saved[1].role, "assistant");
    assert.equal(messageText(saved[1]), "Hello");
  } finally {
    await t.close();
  }
});

Deno.test("providers: the connection drops mid-stream → error chunk, partial kept", async () => {
  const t = await turn(OPENAI_CHAT, [{ fixture: "openai-text.chunks.txt", failAfterChunks: 40 }]);
  try {
    assert.equal(t.res.status, 200);
    const sse = await readSse(t.res);
    const streamed = streamedText(sse.chunks);
    const full = await chatCompletionsText("openai-text.chunks.txt");
    assert.ok(streamed.length > 0 && full.startsWith(streamed), "a prefix of the answer arrived");
    assert.ok(streamed.length < full.length);
    assert.equal(sse.chunks.filter((c) => c.type === "error").length, 1);

    const saved = await waitForMessages(t.server.services.store, t.id, (m) => m.length === 2);
    assert.equal(messageText(saved[1]), streamed);
  } finally {
    await t.close();
  }
});
