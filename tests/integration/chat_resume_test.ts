import assert from "node:assert/strict";
import { createModelRegistry } from "@/lib/models/registry.ts";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

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
    // (Closing the first tab would stop the answer: a disconnect is a stop, see lib/chat/turn.ts.)
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
