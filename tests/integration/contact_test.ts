/**
 * The contact agent's own API over loopback: POST /api/contact (validation, size
 * cap, rate limit, the context header), GET /api/contact/status, and the owner's
 * /admin/messages page behind the admin token.
 */
import assert from "node:assert/strict";
import { CONTEXT_HEADER } from "@/lib/agents/request.ts";
import { CONTEXT_SEAL_HEADER } from "@/lib/agents/context_seal.ts";
import { createRateLimiter } from "@/lib/store/limits.ts";
import { testConfig } from "../support/chat_client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const ADMIN_TOKEN = "admin-token-contact-0123456789";
const valid = {
  name: "Ana Souza",
  email: "ana@example.com",
  message: "Olá! Posso contratar você?",
};

function post(server: TestServer, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/api/contact`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function admin(server: TestServer, query = "", authorization = `Bearer ${ADMIN_TOKEN}`) {
  return fetch(`${server.url}/admin/messages${query}`, { headers: { authorization } });
}

async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  return (await res.json()).error;
}

Deno.test("contact over loopback", async (t) => {
  const server = await startTestServer({
    config: testConfig(),
    env: { ADMIN_TOKEN },
  });
  try {
    await t.step("a valid message is 201, counted, and listed for the owner", async () => {
      const res = await post(server, { ...valid, name: "  Ana Souza  " });
      assert.equal(res.status, 201);
      const { id, receivedAt } = await res.json();
      assert.equal(typeof id, "string");
      assert.ok(Math.abs(Date.parse(receivedAt) - Date.now()) < 60_000, receivedAt);

      const status = await fetch(`${server.url}/api/contact/status`);
      assert.equal(status.status, 200);
      assert.deepEqual(await status.json(), { accepting: true, received: 1 });

      const page = await admin(server);
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /text\/html/);
      assert.equal(page.headers.get("cache-control"), "no-store");
      const html = await page.text();
      assert.ok(html.includes(valid.message), "the message is listed");
      assert.ok(html.includes("Ana Souza &lt;ana@example.com&gt;"), "sender, trimmed");
      assert.ok(html.includes(`id="m-${id}"`));
      const [stored] = (await server.services.contact.list()).messages;
      assert.equal(stored.visitorId, "anonymous", "no cookie: an anonymous sender");
      assert.equal(stored.context, undefined);
    });

    await t.step("each invalid field is a 400 naming it", async () => {
      const cases: Array<[unknown, string]> = [
        [{ email: valid.email, message: valid.message }, '"name"'],
        [{ ...valid, name: "   " }, '"name"'],
        [{ ...valid, name: "n".repeat(101) }, '"name"'],
        [{ ...valid, email: "not-an-address" }, '"email"'],
        [{ ...valid, email: `${"e".repeat(250)}@example.com` }, '"email"'],
        [{ ...valid, message: "" }, '"message"'],
        [{ ...valid, message: "m".repeat(4001) }, '"message"'],
        [{ ...valid, message: 7 }, '"message"'],
        [{ ...valid, phone: "555" }, '"phone"'],
        ["[1,2]", "JSON object"],
        ["{not json", "not valid JSON"],
      ];
      for (const [body, named] of cases) {
        const res = await post(server, body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
        const error = await errorOf(res);
        assert.equal(error.code, "invalid_request");
        assert.ok(error.message.includes(named), `${error.message} names ${named}`);
      }
      assert.equal((await server.services.contact.list()).messages.length, 1, "nothing saved");
    });

    await t.step("a body over the cap is 413, declared or streamed", async () => {
      const huge = JSON.stringify({ ...valid, message: "x".repeat(40_000) });
      const declared = await post(server, huge);
      assert.equal(declared.status, 413);
      assert.equal((await errorOf(declared)).code, "payload_too_large");
      const bytes = new TextEncoder().encode(huge);
      const streamed = await fetch(`${server.url}/api/contact`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < bytes.length; i += 4096) {
              controller.enqueue(bytes.subarray(i, i + 4096));
            }
            controller.close();
          },
        }),
      });
      assert.equal(streamed.status, 413);
      await streamed.body?.cancel();
    });

    await t.step("HTML in a message is shown as text", async () => {
      const message = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"`;
      const name = "<b>Bold</b>";
      assert.equal((await post(server, { ...valid, name, message })).status, 201);
      const html = await (await admin(server)).text();
      assert.ok(!html.includes("<script>alert"), "no live script");
      assert.ok(!html.includes("<img src=x"), "no live img");
      assert.ok(!html.includes("<b>Bold</b>"), "no live markup in the name");
      // Preact escapes `<`, `&` and `"` in text (a lone `>` is harmless there).
      assert.match(html, /&lt;script(>|&gt;)alert\(&quot;x&quot;\)&lt;\/script/, "escaped script");
      assert.match(html, /&lt;b(>|&gt;)Bold&lt;\/b/, "the name is escaped text");
      assert.ok(html.includes("&amp; &quot;quotes&quot;"));
    });

    await t.step("the context header is stored only when the server sealed it", async () => {
      const context = { chatId: "chat-abc123", locale: "pt-BR", visitor: "h_0123" };
      const header = JSON.stringify(context);
      const { contextSeal, clock } = server.services;
      const seal = await contextSeal.seal(header, clock());
      const ok = await post(server, { ...valid, message: "with context" }, {
        [CONTEXT_HEADER]: header,
        [CONTEXT_SEAL_HEADER]: seal,
      });
      assert.equal(ok.status, 201);
      const bad = await post(server, { ...valid, message: "bad context" }, {
        [CONTEXT_HEADER]: "{not json",
        [CONTEXT_SEAL_HEADER]: await contextSeal.seal("{not json", clock()),
      });
      assert.equal(bad.status, 201, "a malformed header does not refuse the message");
      // A visitor calling the API directly cannot pick the chat a message belongs to.
      const forged = { chatId: "someone-elses-chat", locale: "en", visitor: "h_victim" };
      const forgeries: Record<string, string>[] = [
        { [CONTEXT_HEADER]: JSON.stringify(forged) },
        { [CONTEXT_HEADER]: JSON.stringify(forged), [CONTEXT_SEAL_HEADER]: seal },
        { [CONTEXT_HEADER]: JSON.stringify(forged), [CONTEXT_SEAL_HEADER]: "1.forged" },
      ];
      for (const [i, headers] of forgeries.entries()) {
        const res = await post(server, { ...valid, message: `forged ${i}` }, headers);
        assert.equal(res.status, 201, "the message is kept, without the forged chat");
      }
      const { messages } = await server.services.contact.list({ limit: 5 });
      assert.deepEqual(messages.map((m) => [m.message, m.context]), [
        ["forged 2", undefined],
        ["forged 1", undefined],
        ["forged 0", undefined],
        ["bad context", undefined],
        ["with context", context],
      ]);
      const html = await (await admin(server, "", `bearer ${ADMIN_TOKEN}`)).text();
      assert.ok(html.includes("chat-abc123"), "the owner sees which chat sent it");
    });

    await t.step("a visitor with a cookie is stored under their id", async () => {
      const cookie = `visitor=${await server.services.signer.sign("visitor-0123456789ab")}`;
      assert.equal((await post(server, valid, { cookie })).status, 201);
      const [latest] = (await server.services.contact.list({ limit: 1 })).messages;
      assert.equal(latest.visitorId, "visitor-0123456789ab");
    });

    await t.step("/admin/messages is paged newest first with a cursor", async () => {
      const first = await (await admin(server, "?limit=2")).text();
      const next = /href="\?cursor=([0-9a-z]+)&amp;limit=2"/.exec(first)?.[1];
      assert.ok(next, "a link to older messages");
      const ids = (html: string) => [...html.matchAll(/id="m-([0-9a-z]+)"/g)].map((m) => m[1]);
      const all = (await server.services.contact.list({ limit: 100 })).messages.map((m) => m.id);
      assert.deepEqual(ids(first), all.slice(0, 2));
      const second = await (await admin(server, `?cursor=${next}&limit=2`)).text();
      assert.deepEqual(ids(second), all.slice(2, 4));
      assert.equal((await admin(server, "?cursor=../../x")).status, 400);
      assert.equal((await admin(server, "?limit=0")).status, 400);
    });

    await t.step("/admin/messages without the right Bearer token is a 401 page", async () => {
      for (
        const authorization of [
          "",
          `Bearer ${ADMIN_TOKEN}x`,
          `Bearer wrong`,
          ADMIN_TOKEN,
          `Basic ${btoa(`admin:${ADMIN_TOKEN}`)}`,
          `Token ${ADMIN_TOKEN}`,
        ]
      ) {
        const res = await admin(server, "", authorization);
        assert.equal(res.status, 401, `"${authorization}"`);
        assert.match(res.headers.get("content-type") ?? "", /text\/html/);
        assert.equal(res.headers.get("www-authenticate"), "Bearer");
        const html = await res.text();
        assert.ok(!html.includes(valid.message), "no message leaks");
        assert.ok(html.includes("ADMIN_TOKEN"), "the page says what is needed");
      }
    });
  } finally {
    await server.close();
  }
});

Deno.test("contact: /admin/messages is a 401 page when ADMIN_TOKEN is unset", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const res = await admin(server, "", "Bearer anything");
    assert.equal(res.status, 401);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    await res.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("contact: past the visitor's requests a minute, 429 with Retry-After", async () => {
  const limit = { requestsPerMinute: 2, tokensPerDay: 1_000_000 };
  const limits = { visitor: limit, ip: { ...limit, requestsPerMinute: 1000 } };
  const kv = await Deno.openKv(":memory:");
  // A clock fixed mid-minute, so the three posts cannot straddle a new minute.
  const clock = () => 60_000 * 29_000_000 + 30_000;
  const server = await startTestServer({
    kv,
    config: testConfig({ limits }),
    services: { limits: createRateLimiter(kv, limits, clock) },
  });
  try {
    const cookie = `visitor=${await server.services.signer.sign("visitor-ratelimit-01")}`;
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(server, valid, { cookie });
      statuses.push(res.status);
      if (res.status === 429) {
        const retry = Number(res.headers.get("retry-after"));
        assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
        assert.equal((await errorOf(res)).code, "rate_limited");
      } else await res.body?.cancel();
    }
    assert.deepEqual(statuses, [201, 201, 429]);
    assert.equal((await server.services.contact.list()).messages.length, 2);
    // Without a cookie the sender is counted by IP, not refused with the visitor above.
    const anonymous = await post(server, valid);
    assert.equal(anonymous.status, 201);
    await anonymous.body?.cancel();
  } finally {
    await server.close();
    kv.close();
  }
});

Deno.test("contact: a foreign origin may not post", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const res = await post(server, valid, { origin: "https://evil.example" });
    assert.equal(res.status, 403);
    assert.equal((await errorOf(res)).code, "origin_not_allowed");
    assert.equal((await server.services.contact.list()).messages.length, 0);
  } finally {
    await server.close();
  }
});
