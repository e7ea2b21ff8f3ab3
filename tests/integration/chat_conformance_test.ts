/**
 * Conformance of POST /api/chat with the AI SDK's own client code: the SSE the
 * server sends is parsed by the SDK (`parseJsonEventStream` + `uiMessageChunkSchema`,
 * and `DefaultChatTransport`) and rebuilt by `readUIMessageStream`, and by the
 * island's own client (lib/client/chat.ts); both must equal what the server saved
 * in KV. Runs the offline "local" model over the real corpus index.
 */
import assert from "node:assert/strict";
import {
  DefaultChatTransport,
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from "ai";
import { Chat } from "@/lib/client/chat.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  postChat,
  testConfig,
  userMessage,
  viaJson,
} from "../support/chat_client.ts";

const QUESTION = "Quais dados vocês guardam e por quanto tempo?";
const FOLLOW_UP = "Como apagar os meus dados?";

/** The SDK's SSE parsing: bytes → validated UI message chunks (a parse failure throws). */
function sdkChunks(body: ReadableStream<Uint8Array>): ReadableStream<UIMessageChunk> {
  return parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(result, controller) {
        if (!result.success) {
          throw new Error(`The SDK rejected a chunk: ${result.error.message}`);
        }
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
}

async function lastMessage(stream: ReadableStream<UIMessageChunk>): Promise<ChatMessage> {
  let last: ChatMessage | undefined;
  for await (
    const m of readUIMessageStream<ChatMessage>({
      stream,
      onError: (e) => {
        throw e;
      },
    })
  ) last = m;
  assert.ok(last, "the stream rebuilt a message");
  return last;
}

/** The SDK's transport sending the body the island sends (only the new message), to a test server. */
function islandTransport(server: TestServer, jar: CookieJar, model?: string) {
  return new DefaultChatTransport<ChatMessage>({
    api: `${server.url}/api/chat`,
    fetch: jar.fetch,
    prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
      body: {
        id,
        trigger,
        messageId,
        model,
        message: trigger === "submit-message" ? messages.at(-1) : undefined,
      },
    }),
  });
}

function assertAnswer(message: ChatMessage) {
  assert.equal(message.role, "assistant");
  assert.ok(message.parts.some((p) => p.type === "tool-search_site"), "a search_site tool part");
  assert.ok(message.parts.some((p) => p.type === "source-url"), "source chips");
  assert.match(messageText(message), /\[\d\]/, "the answer cites a passage");
  assert.equal(message.metadata?.model, "local");
  assert.equal(message.metadata?.finishReason, "stop");
}

Deno.test("conformance: readUIMessageStream over the SDK-parsed SSE equals the saved message", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const user = userMessage(QUESTION);
    const res = await postChat(server.url, { id, trigger: "submit-message", message: user }, {
      jar,
    });
    assert.equal(res.status, 200);
    assert.ok(jar.cookies.has("visitor"), "the visitor cookie is set on the first response");
    const rebuilt = await lastMessage(sdkChunks(res.body!));
    assertAnswer(rebuilt);

    // The stream closes only after the save: no waiting needed.
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    assert.equal(saved.length, 2);
    assert.deepEqual(saved[0], user);
    assert.deepEqual(viaJson(rebuilt), saved[1]);
  } finally {
    await server.close();
  }
});

Deno.test("conformance: DefaultChatTransport sends only the new message; two turns keep order", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const transport = islandTransport(server, jar);
    const chatId = newChatId();

    const first = userMessage(QUESTION, "u1");
    const stream1 = await transport.sendMessages({
      chatId,
      messages: [first],
      abortSignal: undefined,
      trigger: "submit-message",
      messageId: undefined,
    });
    const answer1 = await lastMessage(stream1);
    assertAnswer(answer1);
    let saved = await server.services.store.loadMessages(chatId) as ChatMessage[];
    assert.deepEqual(viaJson([first, answer1]), saved);

    // Second turn: the client has the whole history but sends only the new message;
    // a server that ignored KV history would answer from an empty history.
    const second = userMessage(FOLLOW_UP, "u2");
    const sent: unknown[] = [];
    const spying = new DefaultChatTransport<ChatMessage>({
      api: `${server.url}/api/chat`,
      fetch: (input, init) => {
        sent.push(JSON.parse(String(init?.body)));
        return jar.fetch(input, init);
      },
      prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
        body: {
          id,
          trigger,
          messageId,
          message: trigger === "submit-message" ? messages.at(-1) : undefined,
        },
      }),
    });
    const stream2 = await spying.sendMessages({
      chatId,
      messages: [first, answer1, second],
      abortSignal: undefined,
      trigger: "submit-message",
      messageId: undefined,
    });
    const answer2 = await lastMessage(stream2);
    assertAnswer(answer2);
    assert.equal(sent.length, 1);
    assert.deepEqual(Object.keys(sent[0] as object).sort(), ["id", "message", "trigger"]);
    assert.deepEqual((sent[0] as { message: unknown }).message, second);

    saved = await server.services.store.loadMessages(chatId) as ChatMessage[];
    assert.deepEqual(saved.map((m) => m.id), [first.id, answer1.id, second.id, answer2.id]);
    assert.deepEqual(saved, viaJson([first, answer1, second, answer2]));
    assert.notEqual(answer1.id, answer2.id);
  } finally {
    await server.close();
  }
});

Deno.test("conformance: the island's Chat rebuilds exactly what KV holds, over two turns", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const chat = new Chat<ChatMessage>({
      id: newChatId(),
      api: `${server.url}/api/chat`,
      fetch: jar.fetch,
    });
    await chat.sendMessage({ text: QUESTION });
    assert.equal(chat.status, "ready", String(chat.error));
    await chat.sendMessage({ text: FOLLOW_UP });
    assert.equal(chat.status, "ready", String(chat.error));

    const saved = await server.services.store.loadMessages(chat.id) as ChatMessage[];
    assert.deepEqual(saved.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
    assert.deepEqual(viaJson(chat.messages), saved);
    assert.equal(messageText(saved[0]), QUESTION);
    assert.equal(messageText(saved[2]), FOLLOW_UP);

    // A reload of the chat page renders the same conversation from KV.
    const page = await jar.fetch(`${server.url}/c/${chat.id}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.indexOf(FOLLOW_UP) > html.indexOf("guardam"), "order is kept on the page");
  } finally {
    await server.close();
  }
});
