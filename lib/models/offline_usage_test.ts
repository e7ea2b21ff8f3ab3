import assert from "node:assert/strict";
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { createLocalModel } from "./local_model.ts";
import { createMemoryUsageRecorder } from "./gateway_fetch.ts";
import { recordOfflineUsage } from "./offline_usage.ts";

const PROMPT: LanguageModelV4Prompt = [
  { role: "user", content: [{ type: "text", text: "Como o assistente encontra as respostas?" }] },
];

/** Waits for the recorder's write, which runs after the call returns. */
const settle = () => new Promise((r) => setTimeout(r, 0));

Deno.test("offline usage: a streamed call read to its end is recorded with its tokens, cost 0", async () => {
  const recorder = createMemoryUsageRecorder();
  const model = recordOfflineUsage(createLocalModel(), { modelId: "local", recorder });
  const { stream } = await model.doStream({ prompt: PROMPT });
  for await (const _ of stream) { /* read it all */ }
  await settle();
  assert.equal(recorder.calls.length, 1);
  const [call] = recorder.calls;
  assert.equal(call.model, "local");
  assert.equal(call.family, "offline");
  assert.equal(call.outcome, "complete");
  assert.ok((call.inputTokens ?? 0) > 0 && (call.outputTokens ?? 0) > 0);
  assert.equal(call.costUsd, 0);
});

Deno.test("offline usage: a generated call is recorded; a cancelled stream as aborted", async () => {
  const recorder = createMemoryUsageRecorder();
  const model = recordOfflineUsage(createLocalModel(), { modelId: "local", recorder });
  await model.doGenerate({ prompt: PROMPT });
  const { stream } = await model.doStream({ prompt: PROMPT });
  await stream.cancel();
  await settle();
  assert.deepEqual(recorder.calls.map((c) => c.outcome), ["complete", "aborted"]);
});

Deno.test("offline usage: without a recorder the model is returned as it is", () => {
  const model = createLocalModel();
  assert.equal(recordOfflineUsage(model, { modelId: "local" }), model);
});
