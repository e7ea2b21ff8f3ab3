/**
 * The visitor's own chats over HTTP: listing, reading, renaming, rating,
 * deleting, "delete my data", and another visitor seeing none of it.
 */
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

Deno.test("history API: ownership, list, rename, feedback, delete, delete my data", async () => {
  const server = await startTestServer({ config: testConfig() });
  const url = server.url;
  try {
    const alice = new CookieJar();
    const bob = new CookieJar();
    const ids = [newChatId(), newChatId()];
    for (const id of ids) {
      assert.ok(
        (await readSse(
          await postChat(url, { id, message: userMessage("Quais dados vocês guardam?") }, {
            jar: alice,
          }),
        )).done,
      );
    }
    const bobChat = newChatId();
    assert.ok(
      (await readSse(
        await postChat(url, { id: bobChat, message: userMessage("Oi") }, { jar: bob }),
      )).done,
    );

    // Listing: newest first, only one's own.
    const list = await (await alice.fetch(`${url}/api/chats`)).json();
    assert.deepEqual(list.chats.map((c: { id: string }) => c.id), [ids[1], ids[0]]);
    assert.ok(list.chats[0].title, "a title from the first question");
    const anon = await (await fetch(`${url}/api/chats`)).json();
    assert.deepEqual(anon.chats, []);

    // Another visitor's chat answers exactly like a missing one, on every route.
    const missing = newChatId();
    for (
      const [method, path, body] of [
        ["GET", `/api/chats/${ids[0]}`],
        ["PATCH", `/api/chats/${ids[0]}`, { title: "x" }],
        ["DELETE", `/api/chats/${ids[0]}`],
        ["POST", `/api/chats/${ids[0]}/feedback`, { messageId: "m", rating: "up" }],
        ["POST", "/api/title", { id: ids[0] }],
      ] as const
    ) {
      const theirs = await bob.fetch(url + path, {
        method,
        headers: { "content-type": "application/json" },
        body: body && JSON.stringify(body),
      });
      const none = await bob.fetch(url + path.replace(ids[0], missing), {
        method,
        headers: { "content-type": "application/json" },
        body: body && JSON.stringify(body),
      });
      assert.equal(theirs.status, 404, `${method} ${path}`);
      assert.equal(none.status, 404);
      assert.deepEqual(await theirs.json(), {
        error: { code: "not_found", message: `Chat "${ids[0]}" not found.` },
      });
      await none.body?.cancel();
    }
    assert.equal((await bob.fetch(`${url}/c/${ids[0]}`)).status, 404);
    const sent = await postChat(url, { id: ids[0], message: userMessage("intruso") }, { jar: bob });
    assert.equal(sent.status, 404);
    await sent.body?.cancel();

    // Read, rename, rate.
    const chat = await (await alice.fetch(`${url}/api/chats/${ids[0]}`)).json();
    assert.deepEqual(chat.messages.map((m: { role: string }) => m.role), ["user", "assistant"]);
    const renamed = await alice.fetch(`${url}/api/chats/${ids[0]}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "  Meus dados  " }),
    });
    assert.deepEqual(await renamed.json(), { id: ids[0], title: "Meus dados" });
    const answerId = chat.messages[1].id;
    const rated = await alice.fetch(`${url}/api/chats/${ids[0]}/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messageId: answerId, rating: "down", comment: "Faltou o prazo." }),
    });
    assert.equal(rated.status, 200);
    const [, answer] = await server.services.store.loadMessages(ids[0]);
    assert.deepEqual((answer.metadata as { feedback?: unknown }).feedback, {
      rating: "down",
      comment: "Faltou o prazo.",
    });
    const badRating = await alice.fetch(`${url}/api/chats/${ids[0]}/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messageId: answerId, rating: "meh" }),
    });
    assert.equal(badRating.status, 400);
    await badRating.body?.cancel();

    // Delete one, then everything.
    assert.equal(
      (await alice.fetch(`${url}/api/chats/${ids[0]}`, { method: "DELETE" })).status,
      204,
    );
    assert.equal((await alice.fetch(`${url}/api/chats/${ids[0]}`)).status, 404);
    const me = await alice.fetch(`${url}/api/me`, { method: "DELETE" });
    assert.deepEqual(await me.json(), { deleted: 1 });
    assert.match(me.headers.get("set-cookie") ?? "", /visitor=;.*Max-Age=0/);
    assert.equal(await server.services.store.getChat(ids[1]), null);
    assert.ok(await server.services.store.getChat(bobChat), "other visitors keep their chats");
  } finally {
    await server.close();
  }
});

Deno.test("history forms work without JavaScript: rename, confirm and delete", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    await readSse(await postChat(server.url, { id, message: userMessage("Oi") }, { jar }));
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      body: new URLSearchParams(fields),
      redirect: "manual" as const,
    });
    const renamed = await jar.fetch(`${server.url}/c/${id}/rename`, form({ title: "Título novo" }));
    assert.equal(renamed.status, 303);
    assert.equal((await server.services.store.getChat(id))?.title, "Título novo");
    const confirm = await jar.fetch(`${server.url}/c/${id}/delete`);
    assert.match(await confirm.text(), /<form method="post" action="\/c\/[^"]+\/delete"/);
    const deleted = await jar.fetch(`${server.url}/c/${id}/delete`, form({}));
    assert.equal(deleted.status, 303);
    assert.equal(await server.services.store.getChat(id), null);
  } finally {
    await server.close();
  }
});

Deno.test("a chat that opens with a greeting is titled by the first question after it", async () => {
  const server = await startTestServer({ config: testConfig() });
  const url = server.url;
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const title = async () => {
      const res = await jar.fetch(`${url}/api/title`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ id }),
      });
      assert.equal(res.status, 200);
      return (await res.json()).title;
    };
    const listed = async () => (await (await jar.fetch(`${url}/api/chats`)).json()).chats[0].title;
    assert.ok(
      (await readSse(await postChat(url, { id, message: userMessage("Oi!") }, { jar }))).done,
    );
    // Before, "Oi" became the title and no later question could replace it.
    assert.equal(await title(), null);
    assert.equal(await listed(), null);
    const question = userMessage("Quanto tempo vocês guardam as conversas?");
    assert.ok((await readSse(await postChat(url, { id, message: question }, { jar }))).done);
    assert.equal(await listed(), "Quanto tempo vocês guardam as conversas");
    assert.equal(await title(), "Quanto tempo vocês guardam as conversas");
    assert.ok(
      (await readSse(await postChat(url, { id, message: userMessage("Valeu!") }, { jar }))).done,
    );
    assert.equal(await listed(), "Quanto tempo vocês guardam as conversas");
  } finally {
    await server.close();
  }
});
