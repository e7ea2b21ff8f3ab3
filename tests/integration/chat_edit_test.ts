import assert from "node:assert/strict";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

Deno.test("edit and resend: the edited question replaces itself and what followed", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const first = userMessage("Quais dados vocês guardam?", "q1");
    assert.ok((await readSse(await postChat(server.url, { id, message: first }, { jar }))).done);
    assert.ok(
      (await readSse(
        await postChat(server.url, { id, message: userMessage("E por quanto tempo?", "q2") }, {
          jar,
        }),
      )).done,
    );
    assert.deepEqual((await server.services.store.loadMessages(id)).map((m) => m.role), [
      "user",
      "assistant",
      "user",
      "assistant",
    ]);

    // The visitor edits the first question: same id, new text.
    const edited = userMessage("Como faço para publicar o assistente?", "q1");
    const read = await readSse(await postChat(server.url, { id, message: edited }, { jar }));
    assert.ok(read.done);
    const saved = await server.services.store.loadMessages(id);
    assert.deepEqual(saved.map((m) => m.role), ["user", "assistant"]);
    assert.equal(
      (saved[0].parts[0] as { text: string }).text,
      "Como faço para publicar o assistente?",
    );

    // An assistant message cannot be "edited" by a client.
    const res = await postChat(server.url, {
      id,
      message: { ...userMessage("x"), id: saved[1].id },
    }, { jar });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.code, "invalid_request");
  } finally {
    await server.close();
  }
});
