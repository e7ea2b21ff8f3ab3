/**
 * Resume followers of one chat are capped: past `maxFollowersPerChat` open
 * `GET /api/chat/:id/stream`, the next answers 429 with Retry-After in the
 * app's JSON error shape; a follower that leaves frees its place. Ownership
 * still comes first (another visitor gets 404, not 429).
 */
import assert from "node:assert/strict";
import defaultConfig from "@/fresh.config.ts";
import {
  CookieJar,
  newChatId,
  parseSseText,
  postChat,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { startReplayedApp } from "../support/server.ts";

const CAP = 3;

Deno.test("resume followers of one chat are capped: 429 with Retry-After past the cap", async () => {
  assert.equal(defaultConfig.maxFollowersPerChat, 16, "the default cap");
  const { server, close } = await startReplayedApp(
    [{ fixture: "openai-text.chunks.txt", delayMs: 40 }], // ~12 s: in flight all along
    { config: testConfig({ maxFollowersPerChat: CAP }) },
  );
  const stop = new AbortController();
  const followers: Response[] = [];
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      model: "openai/gpt-4.1-mini",
      message: userMessage("Conte uma história longa."),
    }, { jar, signal: stop.signal });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (let raw = ""; !parseSseText(raw).chunks.some((c) => c.type === "text-delta");) {
      raw += (await reader.read()).value ?? "";
    }
    const follow = () => jar.fetch(`${server.url}/api/chat/${id}/stream`);
    for (let i = 0; i < CAP; i++) {
      const f = await follow();
      assert.equal(f.status, 200, `follower ${i + 1} of ${CAP}`);
      followers.push(f);
    }
    const refused = await follow();
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
    const body = await refused.json();
    assert.equal(body.error.code, "rate_limited");
    assert.match(body.error.message, /follow/);
    const stranger = await fetch(`${server.url}/api/chat/${id}/stream`);
    await stranger.body?.cancel();
    assert.equal(stranger.status, 404, "another visitor is told nothing, capped or not");

    // A follower that closes frees its place (the server sees the close a moment later).
    await followers.shift()!.body!.cancel();
    let again = await follow();
    for (let tries = 0; again.status === 429 && tries < 200; tries++) {
      await again.body?.cancel();
      await new Promise((r) => setTimeout(r, 25));
      again = await follow();
    }
    assert.equal(again.status, 200, "a place freed by a closed follower is taken again");
    followers.push(again);
    await reader.cancel();
  } finally {
    stop.abort();
    for (const f of followers) await f.body?.cancel().catch(() => {});
    await close();
  }
});
