/**
 * /admin over loopback: the login form and its session cookie, refusals without it, and the dashboard showing known seeded usage, latency, stopped calls, errors,
 * feedback, contact messages and the index.
 */
import { recordGap } from "@/lib/store/gaps.ts";
import { dismissGap } from "@/lib/store/gap_dismissals.ts";
import assert from "node:assert/strict";
import type { UpstreamCall } from "@/lib/models/types.ts";
import { recordFeedback } from "@/lib/store/feedback.ts";
import { createRecentErrors } from "@/lib/store/recent_errors.ts";
import { createKvUsageRecorder } from "@/lib/store/usage.ts";
import { testConfig } from "../support/chat_client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const ADMIN_TOKEN = "admin-token-dashboard-0123456789abcdef";
const WIDGET = "https://widget.example";

function login(server: TestServer, token: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ token }).toString(),
  });
}

function get(server: TestServer, path: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { redirect: "manual", headers });
}

/** The `name=value` of a Set-Cookie line. */
function pair(setCookie: string): string {
  return setCookie.split(";")[0];
}

Deno.test("admin: login, session cookie, refusals", async (t) => {
  const server = await startTestServer({
    env: { ADMIN_TOKEN },
    config: testConfig({ allowedOrigins: [WIDGET] }),
  });
  try {
    await t.step("without credentials /admin redirects to the login form", async () => {
      const res = await get(server, "/admin");
      await res.body?.cancel();
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/admin/login");
      const form = await get(server, "/admin/login");
      assert.equal(form.status, 200);
      assert.match(await form.text(), /<form method="post" action="\/admin\/login"/);
    });
    await t.step("a wrong bearer token is a 401, the right one shows the page", async () => {
      const wrong = await get(server, "/admin", { authorization: "Bearer nope" });
      await wrong.body?.cancel();
      assert.equal(wrong.status, 401);
      const right = await get(server, "/admin", { authorization: `Bearer ${ADMIN_TOKEN}` });
      assert.equal(right.status, 200);
      assert.equal(right.headers.get("cache-control"), "no-store");
      await right.body?.cancel();
    });
    await t.step("a wrong token does not log in", async () => {
      const res = await login(server, "not-the-token");
      assert.equal(res.status, 401);
      assert.equal(res.headers.getSetCookie().length, 0);
      await res.body?.cancel();
    });
    await t.step("the widget's origin may not post the login form", async () => {
      const res = await login(server, ADMIN_TOKEN, { origin: WIDGET });
      assert.equal(res.status, 403);
      assert.equal(res.headers.getSetCookie().length, 0);
      await res.body?.cancel();
    });
    let cookie = "";
    await t.step(
      "the right token sets a session id in a signed, expiring, HttpOnly cookie",
      async () => {
        const res = await login(server, ADMIN_TOKEN, { origin: server.url });
        assert.equal(res.status, 303);
        assert.equal(res.headers.get("location"), "/admin");
        const [set] = res.headers.getSetCookie();
        assert.match(
          set,
          /^admin=[\w-]{43}\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
        );
        assert.ok(!set.includes(ADMIN_TOKEN));
        cookie = pair(set);
        const page = await get(server, "/admin", { cookie });
        assert.equal(page.status, 200);
        await page.body?.cancel();
        const messages = await get(server, "/admin/messages", { cookie });
        assert.equal(messages.status, 200, "the cookie opens /admin/messages too");
        await messages.body?.cancel();
      },
    );
    await t.step("a forged cookie is refused", async () => {
      const [, id, sig] = /^admin=([\w-]+)\.([\w-]+)$/.exec(cookie)!;
      const flip = (s: string) => `${s[0] === "A" ? "B" : "A"}${s.slice(1)}`;
      const random = crypto.randomUUID().replaceAll("-", "").padEnd(43, "x");
      for (
        const bad of [
          `admin=${flip(id)}.${sig}`,
          `admin=${id}.${flip(sig)}`,
          `admin=${random}.${sig}`,
        ]
      ) {
        const res = await get(server, "/admin", { cookie: bad });
        await res.body?.cancel();
        assert.equal(res.status, 303, bad);
      }
    });
    await t.step("logout clears the cookie", async () => {
      const res = await fetch(`${server.url}/admin/logout`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, origin: server.url },
      });
      assert.equal(res.status, 303);
      assert.match(res.headers.getSetCookie()[0], /^admin=; .*Max-Age=0/);
      await res.body?.cancel();
      const replayed = await get(server, "/admin", { cookie });
      await replayed.body?.cancel();
      assert.equal(replayed.status, 303, "the session is gone, not only the browser's copy");
    });
  } finally {
    await server.close();
  }
});

Deno.test("admin: Secure deployments use a __Host- cookie", async () => {
  const server = await startTestServer({ env: { ADMIN_TOKEN }, services: { secureCookies: true } });
  try {
    const res = await login(server, ADMIN_TOKEN);
    const [set] = res.headers.getSetCookie();
    assert.match(
      set,
      /^__Host-admin=.*; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/,
    );
    const page = await get(server, "/admin", { cookie: pair(set) });
    assert.equal(page.status, 200);
    await page.body?.cancel();
    const plain = await get(server, "/admin", {
      cookie: pair(set).replace("__Host-admin", "admin"),
    });
    assert.equal(plain.status, 303, "the plain name is not read where cookies are Secure");
    await plain.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("admin: wrong tokens from one IP are limited, successes are not counted", async () => {
  let now = Date.UTC(2030, 0, 1);
  const server = await startTestServer({ env: { ADMIN_TOKEN }, services: { clock: () => now } });
  try {
    for (let i = 0; i < 9; i++) {
      const res = await login(server, `wrong-${i}`);
      assert.equal(res.status, 401, `wrong token ${i + 1}`);
      await res.body?.cancel();
    }
    for (let i = 0; i < 3; i++) {
      const ok = await login(server, ADMIN_TOKEN);
      assert.equal(ok.status, 303, "a right token is not a failure");
      await ok.body?.cancel();
    }
    const tenth = await login(server, "wrong-9");
    assert.equal(tenth.status, 401, "the 10th failure is still answered");
    await tenth.body?.cancel();

    now += 60_000;
    const limited = await login(server, "wrong-10");
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), String(14 * 60));
    assert.equal(limited.headers.get("cache-control"), "no-store");
    assert.match(await limited.text(), /role="alert">Muitas tentativas.*14 min/);
    const english = await login(server, ADMIN_TOKEN, { "accept-language": "en" });
    assert.equal(english.status, 429, "while limited even the right token is refused");
    assert.equal(english.headers.getSetCookie().length, 0);
    assert.match(await english.text(), /Too many wrong tokens from this address\. Try again in 14/);

    now += 14 * 60_000;
    const after = await login(server, ADMIN_TOKEN);
    assert.equal(after.status, 303, "the right token works once the window has ended");
    await after.body?.cancel();
    const fresh = await login(server, "wrong-again");
    assert.equal(fresh.status, 401, "a new window starts from zero");
    await fresh.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("admin: wrong bearer tokens count like wrong sign-ins, on every admin endpoint", async () => {
  const now = Date.UTC(2030, 0, 1);
  const server = await startTestServer({ env: { ADMIN_TOKEN }, services: { clock: () => now } });
  const bearer = (path: string, token: string) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  try {
    const paths = ["/api/usage", "/admin", "/admin/messages"];
    for (let i = 0; i < 10; i++) {
      const res = await bearer(paths[i % 3], `wrong-${i}`);
      assert.equal(res.status, 401, `wrong token ${i + 1} on ${paths[i % 3]}`);
      await res.body?.cancel();
    }
    for (const path of paths) {
      const res = await bearer(path, ADMIN_TOKEN);
      assert.equal(res.status, 429, `${path}: blocked, even with the right token`);
      assert.ok(Number(res.headers.get("retry-after")) > 0);
      await res.body?.cancel();
    }
    const form = await login(server, ADMIN_TOKEN);
    assert.equal(form.status, 429, "the login form shares the same count");
    await form.body?.cancel();
    // A blocked address is refused before anything is compared, token or not.
    const bare = await fetch(`${server.url}/admin`, { redirect: "manual" });
    assert.equal(bare.status, 429);
    await bare.body?.cancel();
  } finally {
    await server.close();
  }
});

/** A usage record with defaults. */
function call(over: Partial<UpstreamCall>): UpstreamCall {
  return {
    family: "openai",
    provider: "openai",
    model: "openai/gpt-5-mini",
    route: "direct",
    status: 200,
    ttfbMs: 100,
    totalMs: 1000,
    outcome: "complete",
    inputTokens: 10,
    outputTokens: 20,
    costUsd: 0.001,
    at: Date.now(),
    ...over,
  };
}

Deno.test("admin: the dashboard shows known usage, latency, errors and feedback", async () => {
  const server = await startTestServer({ env: { ADMIN_TOKEN } });
  try {
    const { kv } = server.services;
    const usage = createKvUsageRecorder(kv);
    // Ten direct calls: first byte 100…1000 ms (p50 500, p95 1000), total 1100…2000.
    for (let i = 1; i <= 10; i++) {
      await usage.record(call({ ttfbMs: i * 100, totalMs: 1000 + i * 100, at: Date.now() - i }));
    }
    // Two through the gateway, one of them stopped by the visitor mid-answer.
    await usage.record(call({ route: "gateway", ttfbMs: 40, totalMs: 300 }));
    await usage.record(
      call({
        route: "gateway",
        ttfbMs: 60,
        totalMs: 90,
        outcome: "aborted",
        inputTokens: 7,
        outputTokens: 4,
      }),
    );
    await createRecentErrors(kv).record({
      at: Date.now(),
      requestId: "req-known-1",
      method: "POST",
      route: "/api/chat",
      status: 502,
      error: "APICallError(502)",
    });
    await recordFeedback(kv, {
      chatId: "c0123456789abcdef0123",
      messageId: "m1",
      rating: "down",
      comment: "Missed the pricing page",
      at: Date.now(),
    });
    // Two open groups of unanswered questions, one dismissed.
    const gap = { chatId: "c1", reason: "not-covered", lang: "pt" } as const;
    await recordGap(kv, { ...gap, at: 1, question: "Vocês entregam em Portugal?" });
    await recordGap(kv, { ...gap, at: 2, question: "Vocês entregam para Portugal?" });
    await recordGap(kv, { ...gap, at: 3, question: "Qual o horário de atendimento?" });
    await recordGap(kv, { ...gap, at: 4, question: "Vocês vendem pizza?" });
    await dismissGap(kv, { question: "Vocês vendem pizza?", lang: "pt" }, 5);
    await server.services.contact.save({
      name: "Ana Known",
      email: "ana@example.com",
      message: "Hello",
      visitorId: "anonymous",
    });

    const res = await get(server, "/admin", { authorization: `Bearer ${ADMIN_TOKEN}` });
    assert.equal(res.status, 200);
    const html = await res.text();
    const today = new Date().toISOString().slice(0, 10);
    const row = (cells: (string | number)[]) =>
      new RegExp(cells.map((c) => `<td>${c}</td>`).join("\\s*"));
    // 12 calls, 117 input and 224 output tokens, one stopped call with 11 tokens.
    assert.match(html, row([today, "openai/gpt-5-mini", 12, 0, 117, 224, "0.0120", 1, 11]));
    assert.match(html, row(["openai/gpt-5-mini", "direct", 10, "500 / 1000", "1500 / 2000"]));
    assert.match(html, row(["openai/gpt-5-mini", "gateway", 2, "40 / 60", "90 / 300"]));
    assert.match(html, /<svg[^>]*role="img"/, "the chart is inline SVG");
    assert.match(html, /<title>[\d-]+: 341<\/title>/, "today's bar: 341 tokens");
    assert.match(html, /APICallError\(502\)/);
    assert.match(html, /req-known-1/);
    assert.match(html, /0 👍 · 1 👎/);
    assert.match(html, /Missed the pricing page/);
    assert.match(html, /Ana Known/);
    assert.match(html, /href="\/admin\/messages"/);
    assert.match(html, /2 grupos de perguntas esperam uma resposta/);
    assert.match(
      html,
      /<li ?>Qual o horário de atendimento\? ×1<\/li>\s*<li ?>Vocês entregam para Portugal\? ×2<\/li>/,
    );
    assert.ok(!html.includes("pizza"), "a dismissed group is not counted");
    assert.match(html, /href="\/admin\/gaps"/);
    assert.ok(
      !/<script/.test(html.replace(/<script[^>]*type="application\/json"[^>]*>/g, "")),
      "no island, no script",
    );
  } finally {
    await server.close();
  }
});
