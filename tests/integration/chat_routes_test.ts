/**
 * The answer's receipt names the route its upstream calls took: through the
 * gateway, or directly after a gateway failure.
 */
import assert from "node:assert/strict";
import type { ChatMessageMetadata } from "@/lib/protocol/ui_message.ts";
import { startReplayServer } from "../support/replay_server.ts";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";
import { openaiReplayEnv } from "../support/ui.ts";

for (
  const [gatewayStatus, expected] of [
    [200, ["gateway"]],
    [502, ["direct-after-gateway-error"]],
  ] as const
) {
  Deno.test(`receipt routes: gateway answering ${gatewayStatus} → ${expected.join(", ")}`, async () => {
    const direct = startReplayServer(() => ({ fixture: "openai-text.chunks.txt" }));
    const gateway = startReplayServer(() =>
      gatewayStatus === 200 ? { fixture: "openai-text.chunks.txt" } : {
        status: gatewayStatus,
        body: '{"error":"bad gateway"}',
        headers: { "content-type": "application/json" },
      }
    );
    const server = await startTestServer({
      config: testConfig(),
      env: { ...openaiReplayEnv(direct.url), AI_GATEWAY_URL: gateway.url },
    });
    try {
      const id = newChatId();
      const read = await readSse(
        await postChat(
          server.url,
          { id, model: "openai/gpt-4.1-mini", message: userMessage("Oi") },
          {
            jar: new CookieJar(),
          },
        ),
      );
      assert.ok(read.done);
      const [, answer] = await server.services.store.loadMessages(id);
      assert.deepEqual((answer.metadata as ChatMessageMetadata).routes, expected);
      assert.equal(gateway.requests.length, 1);
      assert.equal(direct.requests.length, gatewayStatus === 200 ? 0 : 1);
    } finally {
      await server.close();
      await direct.close();
      await gateway.close();
    }
  });
}
