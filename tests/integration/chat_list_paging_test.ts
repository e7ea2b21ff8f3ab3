/**
 * The chat list pages over HTTP as the sidebar and API clients walk it: every cursor the
 * server hands out is accepted back, and every chat is listed once.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { CookieJar, newChatId, postChat, testConfig, userMessage } from "../support/chat_client.ts";

Deno.test("chat list: 25 chats walked 7 at a time through /api/chats, each once", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const id = newChatId();
      ids.push(id);
      await (await postChat(server.url, { id, message: userMessage(`Oi ${i}`) }, { jar })).text();
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const res: Response = await jar.fetch(`${server.url}/api/chats?limit=7${query}`);
      assert.equal(res.status, 200, `cursor ${cursor}`);
      const page = await res.json() as { chats: { id: string }[]; cursor: string | null };
      seen.push(...page.chats.map((c) => c.id));
      cursor = page.cursor;
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse(), "newest first, each chat once");
  } finally {
    await server.close();
  }
});
