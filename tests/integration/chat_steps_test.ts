/**
 * The step bound of a turn (config.maxSteps) with a scripted model injected through
 * a minimal ModelRegistry: a model that always calls search_site is called exactly
 * maxSteps times, the last time without tools, and the answer ends with its text.
 * The bound counts model calls: the search a turn runs before the first one
 * (retrieval "prefetch") is not one of them.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import {
  createScriptedModel,
  SCRIPTED_TOOLLESS_TEXT,
  scriptedRegistry,
  type ScriptedStep,
} from "@/lib/models/testing.ts";
import type { Retrieval } from "@/lib/config.ts";
import { startTestServer } from "../support/server.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";

async function run(steps: ScriptedStep[], maxSteps: number, retrieval: Retrieval = "tool") {
  const model = createScriptedModel(steps);
  const server = await startTestServer({
    config: testConfig({ maxSteps, retrieval }),
    services: { models: scriptedRegistry(model) },
  });
  const id = newChatId();
  try {
    const res = await postChat(server.url, {
      id,
      trigger: "submit-message",
      message: userMessage("Quais dados vocês guardam?"),
    }, { jar: new CookieJar() });
    assert.equal(res.status, 200);
    const sse = await readSse(res);
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    return { model, sse, saved };
  } finally {
    await server.close();
  }
}

const ALWAYS_SEARCH: ScriptedStep[] = [
  { type: "tool-call", toolName: "search_site", input: { query: "dados guardados" } },
];

for (const maxSteps of [1, 3, 5]) {
  Deno.test(`steps: a model that always calls search_site is called exactly maxSteps=${maxSteps} times, the last without tools`, async () => {
    const { model, sse, saved } = await run(ALWAYS_SEARCH, maxSteps);
    assert.equal(model.calls.length, maxSteps);
    assert.ok(sse.done, "the stream ends with [DONE]");
    assert.equal(sse.chunks.filter((c) => c.type === "start-step").length, maxSteps);
    assert.equal(
      sse.chunks.filter((c) => c.type === "tool-output-available").length,
      maxSteps - 1,
    );
    const finish = sse.chunks.at(-1);
    assert.equal(finish?.type, "finish");
    assert.equal(sse.chunks.filter((c) => c.type === "error").length, 0);

    // Only the last call had no tools; it saw every earlier tool result.
    assert.deepEqual(
      model.calls.map((c) => c.toolChoice?.type === "none"),
      Array.from({ length: maxSteps }, (_, i) => i === maxSteps - 1),
    );
    assert.equal(
      model.calls.at(-1)!.prompt.filter((m) => m.role === "tool").length,
      maxSteps - 1,
    );
    // The saved answer holds the tool calls made, then the words of the last step.
    assert.equal(saved.length, 2);
    assert.equal(
      saved[1].parts.filter((p) => p.type === "tool-search_site").length,
      maxSteps - 1,
    );
    assert.equal(saved[1].parts.at(-1)?.type, "text");
    assert.equal(messageText(saved[1]), SCRIPTED_TOOLLESS_TEXT);
    assert.equal(saved[1].metadata?.finishReason, "stop");
    assert.equal(
      saved[1].metadata?.outcome,
      "step-limit",
      "the page says the step limit was reached",
    );
  });
}

for (const maxSteps of [1, 3]) {
  Deno.test(`steps, prefetch: a model that always calls search_site is still called maxSteps=${maxSteps} times, after the turn's own search`, async () => {
    const { model, sse, saved } = await run(ALWAYS_SEARCH, maxSteps, "prefetch");
    assert.equal(model.calls.length, maxSteps);
    assert.ok(sse.done);
    assert.equal(sse.chunks.filter((c) => c.type === "start-step").length, maxSteps + 1);
    assert.equal(sse.chunks.filter((c) => c.type === "tool-output-available").length, maxSteps);
    // The first call already read the turn's search.
    assert.equal(model.calls[0].prompt.filter((m) => m.role === "tool").length, 1);
    assert.equal(saved[1].parts.filter((p) => p.type === "tool-search_site").length, maxSteps);
    assert.equal(messageText(saved[1]), SCRIPTED_TOOLLESS_TEXT);
    assert.equal(saved[1].metadata?.outcome, "step-limit");
  });
}

Deno.test("steps: a tool call then a text answer stops on its own before the bound", async () => {
  const { model, sse, saved } = await run([
    ALWAYS_SEARCH[0],
    { type: "text", text: "Guardamos conversas por 30 dias [1]." },
  ], 3);
  assert.equal(model.calls.length, 2);
  assert.ok(sse.done);
  assert.equal(messageText(saved[1]), "Guardamos conversas por 30 dias [1].");
  assert.equal(saved[1].metadata?.finishReason, "stop");
  assert.deepEqual(saved[1].metadata?.citations, { valid: 1, invalid: 0 });
});

Deno.test("steps: a citation the search did not return is removed before the client and KV", async () => {
  const { sse, saved } = await run([
    ALWAYS_SEARCH[0],
    { type: "text", text: "Trinta dias [1], talvez [42]." },
  ], 3);
  const text = sse.chunks.flatMap((c) => c.type === "text-delta" ? [c.delta] : []).join("");
  assert.equal(text, "Trinta dias [1], talvez.");
  assert.equal(messageText(saved[1]), text);
  assert.deepEqual(saved[1].metadata?.citations, { valid: 1, invalid: 1 });
});

Deno.test("steps: the model gets the history from KV; regenerate replaces only the last answer", async () => {
  const model = createScriptedModel([
    { type: "text", text: "Primeira resposta." },
    { type: "text", text: "Segunda resposta." },
    { type: "text", text: "Segunda, de novo." },
  ]);
  const server = await startTestServer({
    config: testConfig(),
    services: { models: scriptedRegistry(model) },
  });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const turn = async (b: Record<string, unknown>) => {
      const res = await postChat(server.url, { id, ...b }, { jar });
      assert.equal(res.status, 200);
      assert.ok((await readSse(res)).done);
    };
    await turn({ message: userMessage("Pergunta um", "q1") });
    await turn({ message: userMessage("Pergunta dois", "q2") });
    // The second call saw the first exchange, loaded from KV (the client sent only q2).
    const promptText = (i: number) =>
      model.calls[i].prompt.filter((m) => m.role !== "system").map((m) =>
        `${m.role}:${
          (m.content as Array<{ type: string; text?: string }>).map((p) => p.text ?? "").join("")
        }`
      );
    // Each answer begins with the turn's own search (a tool call and its result, no text).
    assert.deepEqual(promptText(1), [
      "user:Pergunta um",
      "assistant:",
      "tool:",
      "assistant:Primeira resposta.",
      "user:Pergunta dois",
      "assistant:",
      "tool:",
    ]);

    const before = await server.services.store.loadMessages(id) as ChatMessage[];
    await turn({ trigger: "regenerate-message", messageId: before[3].id });
    assert.deepEqual(promptText(2), promptText(1), "regenerate sends the same history");
    const after = await server.services.store.loadMessages(id) as ChatMessage[];
    assert.deepEqual(after.slice(0, 3), before.slice(0, 3));
    assert.equal(after.length, 4);
    assert.equal(messageText(after[3]), "Segunda, de novo.");
    assert.notEqual(after[3].id, before[3].id);
  } finally {
    await server.close();
  }
});
