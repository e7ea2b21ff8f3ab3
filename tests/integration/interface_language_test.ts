/**
 * A question in neither language ("OpenAI?", "Deno KV?"), through POST /api/chat with the
 * offline model and the demo site's index: it is answered in the visitor's interface
 * language, from the pages in that language when the site has some.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
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

async function answer(question: string, lang: "en" | "pt-BR"): Promise<string> {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    jar.cookies.set("lang", lang);
    const id = newChatId();
    const res = await postChat(server.url, { id, message: userMessage(question) }, { jar });
    assert.equal(res.status, 200);
    assert.ok((await readSse(res)).done);
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    return messageText(saved[1]);
  } finally {
    await server.close();
  }
}

Deno.test("a bare name is answered in the interface's language, from its pages", async () => {
  // Before, the Portuguese interface got the English page under "O site trata disso só em
  // inglês", though the Portuguese models page names OpenAI too.
  const pt = await answer("OpenAI?", "pt-BR");
  assert.match(pt, /^“/);
  assert.doesNotMatch(pt, /só em inglês|The site/);
  assert.match(pt, /OpenAI/);
  const en = await answer("OpenAI?", "en");
  assert.match(en, /^“The site owner chooses which language models/);
  // A page only in Portuguese is still quoted for an English interface, and said to be so.
  assert.match(await answer("deployctl?", "en"), /^The site covers this in Portuguese only: “/);
});
