/**
 * Two server processes sharing one KV file, as isolates of one deployment share
 * the managed KV: an answer started on one is followed from the other and equals
 * what is saved, and a stop sent to the other reaches the provider connection.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { spawnAppProcess } from "../support/app_process.ts";
import {
  type RecordedRequest,
  type ReplayStep,
  startReplayServer,
} from "../support/replay_server.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  postChat,
  readSse,
  streamedText,
  userMessage,
} from "../support/chat_client.ts";
import { chatScript, openaiChatStream, openaiReplayEnv } from "../support/ui.ts";

const LONG =
  "Uma resposta longa, entregue em pedaços pequenos, para dar tempo de segui-la de outro processo.";
const titles = chatScript([]) as (request: RecordedRequest) => ReplayStep;
const slow = (request: RecordedRequest): ReplayStep =>
  (request.body as { stream?: boolean }).stream === true
    ? { body: openaiChatStream(LONG, 3), delayMs: 30 }
    : titles(request);

Deno.test({
  name: "streams across processes: follow from another process, stop from another process",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const replay = startReplayServer(slow);
    const dir = await Deno.makeTempDir();
    const spawn = () => spawnAppProcess(`${dir}/kv.sqlite`, openaiReplayEnv(replay.url));
    const a = await spawn();
    const b = await spawn();
    try {
      const jar = new CookieJar();
      const id = newChatId();
      const started = await postChat(a.url, { id, message: userMessage("Conte devagar.") }, {
        jar,
      });
      assert.equal(started.status, 200);
      const original = readSse(started);
      // Follow it from the other process while it streams.
      await new Promise((r) => setTimeout(r, 300));
      const followed = await jar.fetch(`${b.url}/api/chat/${id}/stream`);
      assert.equal(followed.status, 200);
      const seen = await readSse(followed);
      assert.equal(streamedText(seen.chunks), LONG, "the follower got the whole answer, once");
      await original;
      const res = await jar.fetch(`${b.url}/api/chats/${id}`);
      const { messages } = await res.json() as { messages: ChatMessage[] };
      assert.equal(messageText(messages[1]), LONG, "what the follower rebuilt is what was saved");

      // A second answer, stopped through the other process.
      const second = await postChat(a.url, { id, message: userMessage("E outra.") }, { jar });
      const reading = readSse(second);
      await new Promise((r) => setTimeout(r, 300));
      const calls = replay.requests.filter((r) => (r.body as { stream?: boolean }).stream === true);
      const index = calls.at(-1)!.index;
      const stoppedAt = performance.now();
      const stop = await jar.fetch(`${b.url}/api/chat/${id}/stop`, { method: "POST" });
      assert.equal(stop.status, 202);
      await stop.body?.cancel();
      const close = await replay.waitForClose(index, 3000);
      assert.equal(close.reason, "client-closed", "the provider connection was closed by the stop");
      const lag = close.at - stoppedAt;
      console.log(
        `stop across processes: provider disconnected ${lag.toFixed(0)} ms after the stop`,
      );
      assert.ok(lag < 1500, `stopped within the bound (${lag.toFixed(0)} ms)`);
      await reading;
    } finally {
      for (const p of [a, b]) {
        await p.kill();
      }
      await replay.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
