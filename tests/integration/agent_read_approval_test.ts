/**
 * An owner who does not want the model's reads to leave unseen (a GET's query string
 * can carry chat data) sets `approvalMode: "all"`: a GET then waits for the visitor
 * like a write, and is sent only once approved; `approval: { op: "never" }` is the
 * allow-list of reads that still run at once.
 */
import assert from "node:assert/strict";
import type { ApprovalDescriptor } from "@/lib/chat/approvals.ts";
import { createScriptedModel } from "@/lib/models/testing.ts";
import { CookieJar, newChatId, readSse } from "../support/chat_client.ts";
import { ask, respond, startSpyAgentApp } from "../support/agent_app.ts";

const readThenAnswer = () =>
  createScriptedModel([
    { type: "tool-call", toolName: "getInfo", input: {} },
    { type: "text", text: "Pronto." },
  ]);

Deno.test('agents: with approvalMode "all" a GET waits for the visitor and is sent only once approved', async () => {
  const app = await startSpyAgentApp(readThenAnswer(), { agent: { approvalMode: "all" } });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const { approvals } = await ask(app.server.url, jar, id, "Quais são os horários?");
    assert.equal(approvals.length, 1, "the read waits for the visitor");
    const descriptor = approvals[0].approvalDescriptor as unknown as ApprovalDescriptor;
    assert.equal(descriptor.request.method, "GET");
    assert.match(descriptor.request.url, /\/info$/);
    assert.equal(app.received.length, 0, "nothing sent before the approval");

    const approved = await respond(app.server.url, jar, id, [{
      approvalId: approvals[0].approvalId,
      approved: true,
    }]);
    assert.equal(approved.status, 200);
    const { chunks } = await readSse(approved);
    assert.ok(chunks.some((c) => c.type === "tool-output-available"));
    assert.deepEqual(app.received.map((r) => `${r.method} ${r.path}`), ["GET /info"]);
  } finally {
    await app.close();
  }
});

Deno.test('agents: a denied read under approvalMode "all" sends nothing', async () => {
  const app = await startSpyAgentApp(readThenAnswer(), { agent: { approvalMode: "all" } });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const { approvals } = await ask(app.server.url, jar, id, "Quais são os horários?");
    const denied = await respond(app.server.url, jar, id, [{
      approvalId: approvals[0].approvalId,
      approved: false,
    }]);
    assert.equal(denied.status, 200);
    await denied.body?.cancel();
    assert.equal(app.received.length, 0);
  } finally {
    await app.close();
  }
});

Deno.test('agents: under approvalMode "all", an operation the owner marks "never" runs at once; by default GET does', async () => {
  for (
    const agent of [
      { approvalMode: "all" as const, approval: { getInfo: "never" as const } },
      {},
      { approvalMode: "writes" as const },
    ]
  ) {
    const app = await startSpyAgentApp(readThenAnswer(), { agent });
    try {
      const { approvals } = await ask(app.server.url, new CookieJar(), newChatId(), "Horários?");
      assert.equal(approvals.length, 0, JSON.stringify(agent));
      assert.deepEqual(app.received.map((r) => r.method), ["GET"], JSON.stringify(agent));
    } finally {
      await app.close();
    }
  }
});
