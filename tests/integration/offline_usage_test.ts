/**
 * Offline answers count in the owner's usage: each turn of the offline model (no HTTP call,
 * no price) appears in GET /api/usage and on /admin with its tokens and a cost of 0.
 */
import assert from "node:assert/strict";
import { OFFLINE_MODEL_ID } from "@/lib/models/catalog.ts";
import type { UsageTotal } from "@/lib/store/usage.ts";
import { startTestServer } from "../support/server.ts";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";

const ADMIN_TOKEN = "admin-token-offline-usage-0123456789abcdef";
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };

Deno.test("offline usage: every offline turn is counted, with tokens and cost 0", async () => {
  const server = await startTestServer({ env: { ADMIN_TOKEN }, config: testConfig() });
  try {
    const jar = new CookieJar();
    const questions = ["Como o assistente encontra as respostas?", "Quais dados vocês guardam?"];
    for (const text of questions) {
      const res = await postChat(server.url, { id: newChatId(), message: userMessage(text) }, {
        jar,
      });
      assert.equal(res.status, 200);
      await readSse(res);
    }
    // Recording does not hold up the answer: wait for the writes.
    let offline: UsageTotal | undefined;
    for (let i = 0; i < 100 && (offline?.calls ?? 0) < questions.length; i++) {
      const body = await (await fetch(`${server.url}/api/usage`, { headers: bearer })).json();
      offline = (body.totals as UsageTotal[]).find((t) => t.model === OFFLINE_MODEL_ID);
      if ((offline?.calls ?? 0) < questions.length) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(offline, "the offline model has a usage row");
    assert.ok(offline.calls >= questions.length, `calls: ${offline.calls}`);
    assert.equal(offline.errors, 0);
    assert.ok(offline.inputTokens > 0, `input tokens: ${offline.inputTokens}`);
    assert.ok(offline.outputTokens > 0, `output tokens: ${offline.outputTokens}`);
    assert.equal(offline.costUsd, 0);

    const admin = await fetch(`${server.url}/admin`, { headers: bearer });
    assert.equal(admin.status, 200);
    const html = await admin.text();
    const usage = html.slice(html.indexOf('id="usage"'));
    assert.match(usage, new RegExp(`<td>${OFFLINE_MODEL_ID}</td><td>${offline.calls}</td>`));
  } finally {
    await server.close();
  }
});
