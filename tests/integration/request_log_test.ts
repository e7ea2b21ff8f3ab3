/**
 * The request log of the real server process (stdout, as in production): every request
 * gives exactly one JSON line, a chat turn's line carries its model, route, tokens and
 * cost, and no secret (session secret, admin token, provider key, cookies) and no text a
 * visitor wrote or the model answered ever appears in the output.
 */
import assert from "node:assert/strict";
import { spawnAppProcess } from "../support/app_process.ts";
import { CookieJar, newChatId, postChat, readSse, userMessage } from "../support/chat_client.ts";
import { startReplayServer } from "../support/replay_server.ts";
import { chatScript, openaiChatStream, openaiReplayEnv } from "../support/ui.ts";
import { tempKvPath } from "../support/temp.ts";

const SESSION_SECRET = "session-secret-SENTINEL-0123456789abcdefghij";
const ADMIN_TOKEN = "admin-token-SENTINEL-9876543210zyxwvu";
const WRONG_TOKEN = "wrong-token-SENTINEL-5555555555";
const QUESTION = "Question text SENTINEL-Q-7f3a: what is the secret plan?";
const ANSWER = "Answer text SENTINEL-A-91bc, streamed by the replayed model.";
const COMMENT = "Feedback comment SENTINEL-C-42aa";
const CONTACT = { name: "Name SENTINEL-N", email: "sentinel-e@example.com", message: "SENTINEL-M" };

Deno.test("request log: one JSON line per request, no secrets, no message text", async () => {
  const replay = startReplayServer(chatScript([{ body: openaiChatStream(ANSWER) }]));
  const kvPath = tempKvPath();
  let stdout = "";
  const env = { ...openaiReplayEnv(replay.url), SESSION_SECRET, ADMIN_TOKEN };
  const app = await spawnAppProcess(kvPath, env, { onOutput: (text) => (stdout += text) });
  try {
    const ids: string[] = [];
    const jar = new CookieJar();
    const send = async (path: string, init: RequestInit = {}, f: typeof fetch = jar.fetch) => {
      const res = await f(`${app.url}${path}`, { redirect: "manual", ...init });
      const id = res.headers.get("x-request-id");
      assert.ok(id, `${path} answers with X-Request-Id`);
      ids.push(id);
      return res;
    };
    await (await send("/")).text();
    await (await send("/styles.css")).text();
    await (await send("/no-such-page")).text();

    const chatId = newChatId();
    const chat = await postChat(app.url, {
      id: chatId,
      model: "openai/gpt-4.1-mini",
      message: userMessage(QUESTION),
    }, { jar });
    ids.push(chat.headers.get("x-request-id")!);
    const sse = await readSse(chat);
    const answer = sse.chunks.find((c) => c.type === "start") as { messageId: string };
    assert.ok(sse.raw.includes("SENTINEL-A"), "the answer was streamed");

    const json = (body: unknown) => ({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const rated = await send(
      `/api/chats/${chatId}/feedback`,
      json({ messageId: answer.messageId, rating: "down", comment: COMMENT }),
    );
    assert.equal(rated.status, 200, await rated.text());
    const contact = await send("/api/contact", json(CONTACT));
    assert.equal(contact.status, 201, await contact.text());

    const form = (token: string) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }).toString(),
    });
    assert.equal((await send("/admin/login", form(WRONG_TOKEN))).status, 401);
    const login = await send("/admin/login", form(ADMIN_TOKEN));
    assert.equal(login.status, 303);
    const dashboard = await send("/admin");
    assert.equal(dashboard.status, 200);
    assert.match(await dashboard.text(), /SENTINEL-C-42aa/, "the owner sees the comment");
    const bearer = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };
    assert.equal((await send("/api/usage", bearer, fetch)).status, 200);
    const wrongBearer = { headers: { authorization: `Bearer ${WRONG_TOKEN}` } };
    assert.equal((await send("/admin/messages", wrongBearer, fetch)).status, 401);

    // A line is written when its response body has been sent: wait for all of them.
    const lines = await waitFor(() => {
      const found = jsonLines(stdout);
      return found.length >= ids.length ? found : null;
    });
    assert.equal(lines.length, ids.length, "exactly one line per request");
    assert.deepEqual(lines.map((l) => l.requestId).sort(), [...ids].sort());

    const chatLine = lines.find((l) => l.requestId === ids[3])!;
    assert.equal(chatLine.route, "/api/chat");
    assert.equal(chatLine.status, 200);
    const facts = chatLine.chat as Record<string, unknown>;
    assert.equal(facts.model, "openai/gpt-4.1-mini");
    assert.deepEqual(facts.callRoutes, ["direct"]);
    assert.equal(facts.inputTokens, 50);
    assert.equal(facts.outputTokens, Math.ceil(ANSWER.length / 4));
    assert.ok((facts.costUsd as number) > 0);
    assert.equal(facts.outcome, "finished");
    assert.equal(lines.find((l) => l.requestId === ids[1])!.route, "static");
    assert.equal(lines.find((l) => l.requestId === ids[2])!.status, 404);

    const secrets = [
      SESSION_SECRET,
      ADMIN_TOKEN,
      WRONG_TOKEN,
      "SENTINEL", // every text above carries it
      ...jar.cookies.values(),
      openaiReplayEnv(replay.url).OPENAI_API_KEY!,
      CONTACT.email,
    ];
    for (const secret of secrets) {
      assert.ok(!stdout.includes(secret), `stdout must not contain "${secret}"`);
    }
    assert.ok(jar.cookies.size >= 2, "the visitor and admin cookies were set (and checked)");
  } finally {
    await app.kill();
    await replay.close();
  }
});

/** The JSON lines of `text`; any other line but "listening <port>" fails the test. */
function jsonLines(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((l) => l.trim() && !/^listening \d+$/.test(l)).flatMap((l) => {
    const complete = text.endsWith("\n") || !text.endsWith(l);
    if (!complete) return [];
    const parsed = JSON.parse(l);
    assert.equal(parsed.msg, "request", `a log line: ${l}`);
    return [parsed];
  });
}

/** Polls `probe` until it returns a value (the child writes asynchronously). */
async function waitFor<T>(probe: () => T | null, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  while (true) {
    const value = probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error("The log lines did not arrive.");
    await new Promise((r) => setTimeout(r, 20));
  }
}
