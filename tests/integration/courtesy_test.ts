/**
 * Courtesy around a question, through POST /api/chat with the offline model and the demo
 * site's index: a greeting before a covered question no longer makes the answer "not
 * covered" (its words are on no page and used to weigh against the question), and a
 * message that is only small talk gets a reply in kind, with no search and no source.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { notCoveredAnswer } from "@/lib/models/extractive.ts";
import { smallTalkReply } from "@/lib/models/local_small_talk.ts";
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

/** The saved answer to one question, in prefetch or tool mode. */
async function answer(question: string, retrieval: "prefetch" | "tool"): Promise<ChatMessage> {
  const server = await startTestServer({ config: testConfig({ retrieval }) });
  try {
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      trigger: "submit-message",
      message: userMessage(question),
    }, { jar: new CookieJar() });
    assert.equal(res.status, 200);
    assert.ok((await readSse(res)).done);
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    return saved[1];
  } finally {
    await server.close();
  }
}

/** The queries the answer's site searches ran with. */
function searchedFor(message: ChatMessage): string[] {
  return message.parts.flatMap((p) =>
    p.type === "tool-search_site" ? [(p.input as { query: string }).query] : []
  );
}

const GREETED = [
  {
    question: "Hey, good morning, how long do you keep my chats?",
    query: "how long do you keep my chats?",
  },
  {
    question: "Oi, boa tarde! Quanto tempo vocês guardam as conversas? Obrigado!",
    query: "Quanto tempo vocês guardam as conversas?",
  },
];

for (const retrieval of ["prefetch", "tool"] as const) {
  for (const { question, query } of GREETED) {
    Deno.test(`courtesy (${retrieval}): ${JSON.stringify(question)} is answered from the site`, async () => {
      const reply = await answer(question, retrieval);
      assert.deepEqual(searchedFor(reply), [query]);
      const text = messageText(reply);
      assert.notEqual(text, notCoveredAnswer("en"));
      assert.notEqual(text, notCoveredAnswer("pt"));
      assert.ok((reply.metadata?.citations?.valid ?? 0) > 0, text);
    });
  }

  const TALK = [
    { question: "Oi, tudo certo por aí?", reply: smallTalkReply("greeting", "pt") },
    { question: "Thanks a lot!", reply: smallTalkReply("thanks", "en") },
    // The test app has the contact agent, so the reply says it can take a message.
    {
      question: "Oi! O que você sabe fazer?",
      reply: smallTalkReply("self", "pt", { contact: true }),
    },
  ];
  for (const { question, reply: expected } of TALK) {
    Deno.test(`courtesy (${retrieval}): small talk ${JSON.stringify(question)} gets a reply in kind, no search`, async () => {
      const reply = await answer(question, retrieval);
      assert.deepEqual(searchedFor(reply), []);
      assert.equal(messageText(reply), expected);
      assert.ok(!reply.parts.some((p) => p.type === "source-url"));
    });
  }
}
