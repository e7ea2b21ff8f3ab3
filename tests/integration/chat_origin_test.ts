/**
 * Behind a TLS proxy the server sees http://… while the browser sends the public https origin:
 * the chat accepts the site's own public origin (`site.url`), and still refuses others.
 */
import assert from "node:assert/strict";
import defaultConfig from "@/fresh.config.ts";
import { newChatId, postChat, testConfig, userMessage } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

Deno.test("chat origin: the site's public origin is ours behind a proxy; a foreign one is refused", async () => {
  const server = await startTestServer({
    config: testConfig({ site: { ...defaultConfig.site, url: "https://assistente.example" } }),
  });
  try {
    const ask = (origin: string) =>
      postChat(server.url, { id: newChatId(), message: userMessage("Oi") }, {
        headers: { origin },
      });
    const own = await ask("https://assistente.example");
    assert.equal(own.status, 200);
    await own.body?.cancel();
    const foreign = await ask("https://outro.example");
    assert.equal(foreign.status, 403);
    assert.equal((await foreign.json()).error.code, "origin_not_allowed");
  } finally {
    await server.close();
  }
});
