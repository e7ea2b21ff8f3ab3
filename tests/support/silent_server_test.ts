import assert from "node:assert/strict";
import { startSilentServer } from "./silent_server.ts";
import { startReplayServer } from "./replay_server.ts";

Deno.test("silent server never answers and sees the client close, whatever the request size", async () => {
  const silent = startSilentServer();
  try {
    for (const [index, size] of [[0, 10], [1, 50_000]]) {
      const abort = new AbortController();
      // Abort once the whole request has arrived, however slow a loaded machine is.
      const arrived = setInterval(() => {
        if ((silent.received[index] ?? 0) > size) abort.abort();
      }, 5);
      await assert.rejects(() =>
        fetch(`${silent.url}/x`, { method: "POST", body: "a".repeat(size), signal: abort.signal })
      ).finally(() => clearInterval(arrived));
      await silent.waitForClose(index);
      assert.ok(silent.received[index] > size);
    }
  } finally {
    await silent.close();
  }
});

Deno.test("replay server: stallAfterChunks sends headers and N chunks, then nothing until the client closes", async () => {
  const server = startReplayServer([{ body: ["a", "b", "c"], stallAfterChunks: 1 }]);
  try {
    const res = await fetch(`${server.url}/x`, { method: "POST" });
    const reader = res.body!.getReader();
    assert.equal(new TextDecoder().decode((await reader.read()).value), "a");
    const next = await Promise.race([
      reader.read().then(() => "chunk"),
      new Promise((resolve) => setTimeout(() => resolve("stalled"), 100)),
    ]);
    assert.equal(next, "stalled");
    await reader.cancel();
    assert.deepEqual(await server.waitForClose(0).then((c) => [c.reason, c.chunksSent]), [
      "client-closed",
      1,
    ]);
  } finally {
    await server.close();
  }
});
