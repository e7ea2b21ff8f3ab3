/**
 * KV failures injected through the store's interface: before the stream the
 * visitor gets a 503; after it the save is retried, and a save that keeps
 * failing is told in the stream while the answer itself still arrives.
 */
import assert from "node:assert/strict";
import { createKvChatStore } from "@/lib/store/chats.ts";
import { StoreUnavailableError } from "@/lib/store/errors.ts";
import type { ChatStore } from "@/lib/store/ports.ts";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  streamedText,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

/** A store whose chosen methods fail the first `times` calls (Infinity: always). */
function flakyStore(
  inner: ChatStore,
  method: keyof ChatStore,
  times: number,
): ChatStore & { calls: number } {
  const wrapped = {
    ...inner,
    calls: 0,
  } as ChatStore & { calls: number };
  const original = inner[method] as (...args: unknown[]) => Promise<unknown>;
  (wrapped as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
    wrapped.calls++;
    if (wrapped.calls <= times) {
      return Promise.reject(
        new StoreUnavailableError("Injected KV failure.", { cause: new Error("injected") }),
      );
    }
    return original.apply(inner, args);
  };
  return wrapped;
}

async function serverWith(make: (store: ChatStore) => ChatStore) {
  const kv = await Deno.openKv(":memory:");
  const store = make(createKvChatStore(kv, { retentionDays: 30 }));
  const server = await startTestServer({ kv, config: testConfig(), services: { store } });
  return {
    server,
    store,
    kv,
    async close() {
      await server.close();
      kv.close();
    },
  };
}

Deno.test("KV unavailable before the stream: 503 unavailable, no stream", async () => {
  const t = await serverWith((s) => flakyStore(s, "loadChat", Infinity));
  try {
    const res = await postChat(t.server.url, { id: newChatId(), message: userMessage("Oi") });
    assert.equal(res.status, 503);
    assert.deepEqual((await res.json()).error.code, "unavailable");
  } finally {
    await t.close();
  }
});

for (const method of ["beginTurn", "replaceMessage"] as const) {
  Deno.test(`a save that fails twice (${method}) is retried and the turn is kept`, async () => {
    let flaky!: ChatStore & { calls: number };
    const t = await serverWith((s) => (flaky = flakyStore(s, method, 2)));
    try {
      const jar = new CookieJar();
      const id = newChatId();
      const read = await readSse(
        await postChat(t.server.url, { id, message: userMessage("Quais dados vocês guardam?") }, {
          jar,
        }),
      );
      assert.ok(read.done);
      assert.equal(read.chunks.some((c) => c.type === "data-notice"), false);
      assert.equal(flaky.calls, 3);
      const saved = await t.store.loadMessages(id);
      assert.deepEqual(saved.map((m) => m.role), ["user", "assistant"]);
      assert.equal((saved[1].metadata as { outcome?: string }).outcome, "finished");
    } finally {
      await t.close();
    }
  });
}

Deno.test("a save that keeps failing is told in the stream; the answer still arrives", async () => {
  const t = await serverWith((s) => flakyStore(s, "beginTurn", Infinity));
  try {
    const read = await readSse(
      await postChat(t.server.url, {
        id: newChatId(),
        message: userMessage("Quais dados vocês guardam?"),
      }),
    );
    assert.ok(read.done);
    assert.ok(streamedText(read.chunks).length > 20, "the answer was delivered");
    const notice = read.chunks.find((c) => c.type === "data-notice") as
      | { data?: { code?: string } }
      | undefined;
    assert.equal(notice?.data?.code, "save_failed");
  } finally {
    await t.close();
  }
});

Deno.test("KV unavailable on the history API: 503 unavailable with Retry-After, not a 500", async () => {
  const t = await serverWith((s) => flakyStore(s, "listChats", Infinity));
  try {
    const jar = new CookieJar();
    // A visitor cookie first (a chat turn does not list chats).
    const warm = await postChat(t.server.url, { id: newChatId(), message: userMessage("Oi") }, {
      jar,
    });
    await warm.text();
    const res = await jar.fetch(`${t.server.url}/api/chats`);
    assert.equal(res.status, 503);
    assert.equal((await res.json()).error.code, "unavailable");
    assert.equal(res.headers.get("retry-after"), "5");
  } finally {
    await t.close();
  }
});

Deno.test("KV unavailable on a chat page: the 503 error page, not a 500", async () => {
  const t = await serverWith((s) => flakyStore(s, "getChat", Infinity));
  try {
    const res = await fetch(`${t.server.url}/c/${newChatId()}`);
    assert.equal(res.status, 503);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});
