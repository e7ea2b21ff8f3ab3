import assert from "node:assert/strict";
import { fixtureChunks, refusedUrl, startReplayServer } from "./replay_server.ts";

Deno.test("fixtureChunks frames OpenAI chunk lines with [DONE] and Gemini ones without", async () => {
  const openai = await fixtureChunks("azure-model-router.1.chunks.txt");
  assert.equal(openai.chunks.length, 9);
  assert.ok(openai.chunks[0].startsWith("data: {"));
  assert.ok(openai.chunks.every((c) => c.endsWith("\n\n")));
  assert.equal(openai.chunks.at(-1), "data: [DONE]\n\n");

  const google = await fixtureChunks("google-text.chunks.txt");
  assert.equal(google.chunks.length, 3);
  assert.ok(!google.chunks.some((c) => c.includes("[DONE]")));

  const bin = await fixtureChunks(
    "a247c49c5fcd492bfb7a02a3306ad615ed8d8f649888ebfddfbc3ee151f44d46.bin",
  );
  assert.equal(bin.chunks.length, 14);
  assert.equal(bin.chunks.at(-1), "data: [DONE]\n\n");

  const error = await fixtureChunks("openai-error.1.json");
  assert.equal(error.contentType, "application/json");
  assert.equal(error.chunks.length, 1);
});

Deno.test("fixtureChunks refuses paths outside the fixtures dir", async () => {
  await assert.rejects(() => fixtureChunks("../DESIGN.md"), /bare file name/);
});

Deno.test("replay server records requests and replays a fixture in order", async () => {
  const server = startReplayServer([
    { fixture: "reasoning-model-legacy-parameter-error.json", status: 400 },
    { fixture: "google-text.chunks.txt" },
  ]);
  try {
    const first = await fetch(`${server.url}/v1/chat/completions?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer k" },
      body: JSON.stringify({ model: "m" }),
    });
    assert.equal(first.status, 400);
    assert.equal((await first.json()).error.code, "unsupported_parameter");
    const second = await fetch(`${server.url}/stream`, { method: "POST" });
    const text = await second.text();
    assert.equal(text.split("\n\n").filter(Boolean).length, 3);
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0].path, "/v1/chat/completions?x=1");
    assert.equal(server.requests[0].headers.authorization, "Bearer k");
    assert.deepEqual(server.requests[0].body, { model: "m" });
    assert.equal((await server.waitForClose(1)).reason, "completed");
  } finally {
    await server.close();
  }
});

Deno.test("replay server drops the connection after N chunks", async () => {
  const server = startReplayServer([{ fixture: "openai-text.chunks.txt", failAfterChunks: 2 }]);
  try {
    const res = await fetch(`${server.url}/x`, { method: "POST" });
    assert.equal(res.status, 200);
    await assert.rejects(() => res.text());
    assert.equal((await server.waitForClose(0)).reason, "dropped");
    assert.equal(server.closes[0].chunksSent, 2);
  } finally {
    await server.close();
  }
});

Deno.test("replay server sees the client's abort and stops sending", async () => {
  const server = startReplayServer([{ fixture: "openai-text.chunks.txt", delayMs: 20 }]);
  try {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/x`, { method: "POST", signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => {});
    // Seen as the client's close, not as the end of the fixture; waitForClose's own bound
    // fails the test if the server never notices.
    const close = await server.waitForClose(0);
    assert.equal(close.reason, "client-closed");
  } finally {
    await server.close();
  }
});

Deno.test("refusedUrl gives a port nobody listens on", async () => {
  await assert.rejects(() => fetch(refusedUrl()), TypeError);
});
