/**
 * What a new visitor tries first, over HTTP on the real app: /en for English, an old link to a
 * deleted chat, and the home page's form posted by a browser without JavaScript.
 */
import assert from "node:assert/strict";
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

const form = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  body: new URLSearchParams(fields),
  redirect: "manual",
});

Deno.test("visitor paths: /en is the English home", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const res = await jar.fetch(`${server.url}/en?agent=contact`, { redirect: "manual" });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/?agent=contact");
    assert.equal(jar.cookies.get("lang"), "en");
    const home = await jar.fetch(`${server.url}/`, {
      headers: { "Accept-Language": "pt-BR" },
    });
    assert.equal(home.status, 200);
    assert.match(await home.text(), /<html lang="en">/);
  } finally {
    await server.close();
  }
});

Deno.test("visitor paths: a deleted chat's page is a 404 with a way home, in the visitor's language", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    await readSse(await postChat(server.url, { id, message: userMessage("Oi") }, { jar }));
    assert.equal((await jar.fetch(`${server.url}/c/${id}`)).status, 200);
    assert.equal((await jar.fetch(`${server.url}/c/${id}/delete`, form({}))).status, 303);
    for (
      const [lang, title, back] of [
        ["pt-BR", "Página não encontrada", "Voltar para o chat"],
        ["en", "Page not found", "Back to the chat"],
      ]
    ) {
      const page = await jar.fetch(`${server.url}/c/${id}`, {
        headers: { "Accept-Language": lang },
      });
      assert.equal(page.status, 404, lang);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
      const html = await page.text();
      assert.ok(html.includes(title), `${lang}: "${title}" in the page`);
      assert.match(html, new RegExp(`<a class="button" href="/">${back}</a>`));
    }
    // A chat id never used is no chat either.
    assert.equal((await jar.fetch(`${server.url}/c/${newChatId()}`)).status, 404);
  } finally {
    await server.close();
  }
});

Deno.test("visitor paths: the home form posts without JavaScript and the answer is on the chat page", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const home = await (await jar.fetch(`${server.url}/`)).text();
    const composer =
      /<form class="composer[^"]*" method="post" action="([^"]*)"\s*>[\s\S]*?<\/form>/
        .exec(home);
    assert.ok(composer, "the composer is a form that posts");
    assert.equal(composer[1], "/");
    assert.match(composer[0], /<textarea id="composer-input" name="text"/);
    assert.doesNotMatch(composer[0], /<button type="submit"[^>]*disabled/);

    const question = "Como o assistente encontra as respostas?";
    const posted = await jar.fetch(`${server.url}/`, form({ text: question }));
    assert.equal(posted.status, 303);
    const location = posted.headers.get("location") ?? "";
    const id = /^\/c\/([A-Za-z0-9_-]+)$/.exec(location)?.[1];
    assert.ok(id, `redirected to a chat: "${location}"`);
    assert.ok(jar.cookies.size > 0, "a new visitor gets the visitor cookie with the redirect");

    const saved = await server.services.store.loadMessages(id);
    assert.deepEqual(saved.map((m) => m.role), ["user", "assistant"]);
    const answer = messageText(saved[1]);
    assert.ok(answer.length > 20, `an answer: "${answer}"`);
    const page = await jar.fetch(server.url + location);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes(question), "the question is on the page");
    const words = answer.replace(/\[\d+\]|[*_#>`]/g, "").split(/\s+/).slice(0, 4).join(" ");
    assert.ok(html.includes(words), `the answer ("${words}…") is rendered on the server`);
    assert.match(html, new RegExp(`method="post" action="/c/${id}"`));

    // The chat page's form asks the next question in the same chat.
    const next = await jar.fetch(server.url + location, form({ text: "E sem internet?" }));
    assert.equal(next.status, 303);
    assert.equal(next.headers.get("location"), location);
    assert.equal((await server.services.store.loadMessages(id)).length, 4);
    // An empty question goes back to the page, asking nothing.
    const empty = await jar.fetch(server.url + location, form({ text: "  " }));
    assert.equal(empty.status, 303);
    assert.equal((await server.services.store.loadMessages(id)).length, 4);
    // Another site's page cannot post a question on the visitor's behalf.
    const forged = await jar.fetch(server.url + "/", {
      ...form({ text: "Oi" }),
      headers: { origin: "https://evil.example" },
    });
    assert.equal(forged.status, 403);
    await forged.body?.cancel();
    // Another visitor cannot post into this chat.
    const other = await fetch(server.url + location, form({ text: "Oi" }));
    assert.equal(other.status, 404);
    await other.body?.cancel();
  } finally {
    await server.close();
  }
});
