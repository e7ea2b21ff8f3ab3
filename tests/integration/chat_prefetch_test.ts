/**
 * Retrieval before the first model call (`retrieval: "prefetch"`) through POST /api/chat:
 * the answer needs one model call less, yet what the client receives, what KV keeps and
 * what the answering model reads are those of a tool-mode turn whose model searched for
 * the same words first; the model can still search again; the offline model answers
 * exactly as in tool mode; the prefetched call reaches real provider adapters as a prior
 * call and its result.
 */
import assert from "node:assert/strict";
import type { UIMessageChunk } from "ai";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { Retrieval } from "@/lib/config.ts";
import type { Env } from "@/lib/models/types.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { createScriptedModel, scriptedRegistry, type ScriptedStep } from "@/lib/models/testing.ts";
import { startTestServer } from "../support/server.ts";
import { openaiReplayEnv } from "../support/ui.ts";
import { type ReplayStep, startReplayServer } from "../support/replay_server.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";

const QUESTION = "Quais dados vocês guardam e por quanto tempo?";

interface Turn {
  chunks: UIMessageChunk[];
  saved: ChatMessage[];
  calls: LanguageModelV4CallOptions[];
}

/** One question per retrieval mode to a scripted model (or the offline one when `steps` is null). */
async function ask(
  retrieval: Retrieval,
  steps: ScriptedStep[] | null,
  questions: string[] = [QUESTION],
): Promise<Turn> {
  const model = steps ? createScriptedModel(steps) : null;
  const server = await startTestServer({
    config: testConfig({ retrieval }),
    ...(model ? { services: { models: scriptedRegistry(model) } } : {}),
  });
  try {
    const id = newChatId();
    const jar = new CookieJar();
    let chunks: UIMessageChunk[] = [];
    for (const question of questions) {
      const res = await postChat(server.url, {
        id,
        trigger: "submit-message",
        message: userMessage(question),
      }, { jar });
      assert.equal(res.status, 200);
      const sse = await readSse(res);
      assert.ok(sse.done);
      chunks = sse.chunks;
    }
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    return { chunks, saved, calls: model?.calls ?? [] };
  } finally {
    await server.close();
  }
}

/**
 * Replaces every id a turn makes up (tool calls, messages) by its order of appearance, and
 * the test server's origin (each mode has its own server) by one name.
 */
function normalized(value: unknown): unknown {
  const ids = new Map<string, string>();
  const text = JSON.stringify(value, (key, v) => {
    if (key === "createdAt" || key === "latencyMs" || key === "ttftMs") return undefined;
    return v;
  });
  return JSON.parse(
    text.replaceAll(/http:\/\/127\.0\.0\.1:\d+/g, "http://site.test").replace(
      /"(call_[A-Za-z0-9_]+|scripted-call-\d+|msg_[A-Za-z0-9]+)"/g,
      (_, id: string) => {
        if (!ids.has(id)) ids.set(id, `id${ids.size}`);
        return `"${ids.get(id)}"`;
      },
    ),
  );
}

const ANSWER = "Guardamos as conversas por 30 dias [1].";

Deno.test("prefetch: the saved message, the stream and the answering prompt equal a tool-mode turn that searched the same words", async () => {
  const prefetch = await ask("prefetch", [{ type: "text", text: ANSWER }]);
  const tool = await ask("tool", [
    { type: "tool-call", toolName: "search_site", input: { query: QUESTION } },
    { type: "text", text: ANSWER },
  ]);
  assert.equal(prefetch.calls.length, 1, "one model call");
  assert.equal(tool.calls.length, 2);
  const parts = (t: Turn) => t.saved[1].parts;
  assert.ok(parts(prefetch).some((p) => p.type === "tool-search_site"));
  assert.deepEqual(normalized(parts(prefetch)), normalized(parts(tool)));
  assert.deepEqual(
    normalized(prefetch.saved[1].metadata?.citations),
    normalized(tool.saved[1].metadata?.citations),
  );
  assert.deepEqual(prefetch.saved[1].metadata?.citations, { valid: 1, invalid: 0 });
  const types = (t: Turn) => t.chunks.map((c) => c.type);
  assert.deepEqual(types(prefetch), types(tool));
  assert.deepEqual(
    normalized(prefetch.chunks.filter((c) => c.type !== "start" && c.type !== "finish")),
    normalized(tool.chunks.filter((c) => c.type !== "start" && c.type !== "finish")),
  );
  assert.deepEqual(normalized(prefetch.calls[0].prompt), normalized(tool.calls[1].prompt));
  assert.deepEqual(normalized(prefetch.calls[0].tools), normalized(tool.calls[1].tools));
});

Deno.test("prefetch: the model can still search again with other words; numbers go on", async () => {
  const { saved, calls } = await ask("prefetch", [
    { type: "tool-call", toolName: "search_site", input: { query: "publicar o assistente" } },
    { type: "text", text: "Veja [1] e [2]." },
  ]);
  assert.equal(calls.length, 2);
  assert.equal(calls[1].prompt.filter((m) => m.role === "tool").length, 2);
  const searches = saved[1].parts.filter((p) => p.type === "tool-search_site") as Array<
    { input: { query: string }; output: { passages: Array<{ n?: number }> } }
  >;
  assert.deepEqual(searches.map((s) => s.input.query), [QUESTION, "publicar o assistente"]);
  const numbers = searches.map((s) => s.output.passages.flatMap((p) => p.n ?? []));
  const first = new Set(numbers[0]);
  // A passage found again keeps its number; a new one continues after the first search's.
  for (const n of numbers[1]) if (!first.has(n)) assert.ok(n > Math.max(...first));
  assert.deepEqual(saved[1].metadata?.citations, { valid: 2, invalid: 0 });
});

const OFFLINE_QUESTIONS = [
  QUESTION,
  "How do I deploy the assistant on my site?",
  "Qual é a capital da Mongólia?",
  "Olá",
  "Quero deixar um recado para o dono do site. Sou Ana, ana@example.com: gostei muito do site!",
];

for (const question of OFFLINE_QUESTIONS) {
  Deno.test(`prefetch: the offline model answers as in tool mode: ${JSON.stringify(question)}`, async () => {
    const prefetch = await ask("prefetch", null, [question]);
    const tool = await ask("tool", null, [question]);
    assert.ok(messageText(prefetch.saved[1]).length > 0);
    assert.deepEqual(normalized(prefetch.saved[1].parts), normalized(tool.saved[1].parts));
    assert.deepEqual(prefetch.saved[1].metadata?.outcome, tool.saved[1].metadata?.outcome);
    assert.deepEqual(prefetch.saved[1].metadata?.citations, tool.saved[1].metadata?.citations);
  });
}

const CONVERSATIONS = [
  OFFLINE_QUESTIONS.slice(0, 3),
  // The offline model asks for the missing details; the reply is for the owner, not a question.
  ["Quero deixar um recado para o dono do site", "Sou Ana, ana@example.com. Gostei muito do site!"],
];

for (const questions of CONVERSATIONS) {
  Deno.test(`prefetch: the offline model answers a conversation of ${questions.length} messages as in tool mode`, async () => {
    const prefetch = await ask("prefetch", null, questions);
    const tool = await ask("tool", null, questions);
    assert.equal(prefetch.saved.length, 2 * questions.length);
    if (questions.length === 2) {
      // The reply went on with the contact request; nothing searched the site for it.
      assert.ok(!prefetch.saved[3].parts.some((p) => p.type === "tool-search_site"));
      assert.match(messageText(prefetch.saved[3]), /recado/);
    }
    assert.deepEqual(
      normalized(prefetch.saved.map((m) => m.parts)),
      normalized(tool.saved.map((m) => m.parts)),
    );
  });
}

/** One prefetch turn against a replayed provider; the first request's body. */
async function firstRequest(
  env: (url: string) => Env,
  model: string,
  step: ReplayStep,
): Promise<{ body: Record<string, unknown>; requests: number; saved: ChatMessage[] }> {
  const replay = startReplayServer([step]);
  const server = await startTestServer({ env: env(replay.url), config: testConfig() });
  try {
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      trigger: "submit-message",
      model,
      message: userMessage(QUESTION),
    }, { jar: new CookieJar() });
    assert.equal(res.status, 200);
    assert.ok((await readSse(res)).done);
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    return {
      body: replay.requests[0].body as Record<string, unknown>,
      requests: replay.requests.length,
      saved,
    };
  } finally {
    await server.close();
    await replay.close();
  }
}

Deno.test("prefetch: OpenAI Chat Completions gets the search as an assistant tool call and its tool message", async () => {
  const { body, requests, saved } = await firstRequest(openaiReplayEnv, "openai/gpt-4.1-mini", {
    fixture: "openai-text.chunks.txt",
  });
  assert.equal(requests, 1);
  const messages = body.messages as Array<Record<string, unknown>>;
  assert.deepEqual(messages.map((m) => m.role), ["system", "user", "assistant", "tool"]);
  const calls = messages[2].tool_calls as Array<
    { id: string; function: { name: string; arguments: string } }
  >;
  assert.equal(calls.length, 1);
  assert.equal(calls[0].function.name, "search_site");
  assert.deepEqual(JSON.parse(calls[0].function.arguments), { query: QUESTION });
  assert.match(calls[0].id, /^call_[A-Za-z0-9]+$/);
  assert.equal(messages[3].tool_call_id, calls[0].id);
  assert.ok(String(messages[3].content).includes('"passages"'));
  assert.ok(saved[1].parts.some((p) => p.type === "tool-search_site"));
});

Deno.test("prefetch: Gemini gets the search as a functionCall and its functionResponse", async () => {
  const { body, requests } = await firstRequest(
    (url) => ({ GOOGLE_GENERATIVE_AI_API_KEY: "test", GOOGLE_BASE_URL: `${url}/v1beta` }),
    "google/gemini-2.5-flash",
    { fixture: "google-text.chunks.txt" },
  );
  assert.equal(requests, 1);
  const contents = body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  assert.deepEqual(contents.map((c) => c.role), ["user", "model", "user"]);
  const call = contents[1].parts[0].functionCall as { name: string; args: unknown };
  assert.deepEqual(call, { ...call, name: "search_site", args: { query: QUESTION } });
  const response = contents[2].parts[0].functionResponse as { name: string };
  assert.equal(response.name, "search_site");
});

Deno.test("prefetch: a real model reads the FAQ entry that answers, whole and alone, first", async () => {
  const { calls } = await ask(
    "prefetch",
    [{ type: "text", text: "Não precisa [1]." }],
    ["Preciso criar uma conta?"],
  );
  const prompt = JSON.stringify(calls[0].prompt);
  const result = calls[0].prompt.flatMap((m) => m.role === "tool" ? m.content : [])
    .find((p) => p.type === "tool-result");
  assert.ok(result && result.type === "tool-result", prompt.slice(0, 300));
  const output = result.output as {
    type: string;
    value: { passages: Array<{ title: string; text: string; n: number }> };
  };
  const first = output.value.passages[0];
  assert.equal(first.n, 1);
  assert.match(first.title, /› Preciso criar uma conta para usar o assistente\?$/);
  assert.match(first.text, /^Não\. Não há cadastro nem login/);
  // The entry's passage holds its own answer only, no neighbour entry's question.
  assert.doesNotMatch(first.text, /\?\s/);
});
