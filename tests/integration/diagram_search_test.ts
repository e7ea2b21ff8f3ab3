/**
 * The offline model asked to draw how the assistant works, through POST /api/chat with
 * `retrieval: "prefetch"`: the visitor sees one search (the drawing's own), not the turn's
 * prefetch on their words followed by the drawing's search, and the diagram still comes.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

for (
  const [lang, question] of [
    ["pt-BR", "Desenhe um diagrama de como o assistente funciona"],
    ["en", "Draw a diagram of how the assistant works"],
  ] as const
) {
  Deno.test(`diagram (${lang}): one search, then the drawing`, async () => {
    const server = await startTestServer({ config: testConfig({ retrieval: "prefetch" }) });
    try {
      const id = newChatId();
      const jar = new CookieJar();
      jar.cookies.set("lang", lang);
      const res = await postChat(server.url, {
        id,
        trigger: "submit-message",
        message: userMessage(question),
      }, { jar });
      assert.equal(res.status, 200);
      const { chunks, done } = await readSse(res);
      assert.ok(done);
      const calls = chunks.filter((c) => c.type === "tool-input-available") as {
        toolName: string;
        input: unknown;
      }[];
      assert.deepEqual(
        calls.map((c) => c.toolName),
        ["search_site", "create_artifact"],
        "one search, then the drawing",
      );
      const saved = await (await jar.fetch(`${server.url}/api/chats/${id}`)).json() as {
        messages: ChatMessage[];
      };
      const parts = saved.messages[1].parts.map((p) => p.type);
      assert.equal(parts.filter((t) => t === "tool-search_site").length, 1, parts.join(", "));
      assert.equal(parts.filter((t) => t === "tool-create_artifact").length, 1);
    } finally {
      await server.close();
    }
  });
}
