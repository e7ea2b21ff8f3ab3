/**
 * Bad model output in an agent call's arguments: a lone UTF-16 surrogate cannot
 * be percent-encoded (`encodeURIComponent` throws), so no request can be built
 * from it. The turn must end with a tool error the model and the visitor see,
 * saved in the chat, and the chat must go on: the next turn answers.
 */
import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { createScriptedModel } from "@/lib/models/testing.ts";
import { CookieJar, newChatId } from "../support/chat_client.ts";
import { ask, startSpyAgentApp } from "../support/agent_app.ts";

/** A spy API whose write takes a path parameter and whose read takes a query parameter. */
const SPEC = {
  openapi: "3.0.3",
  info: { title: "Spy API", version: "1.0.0" },
  paths: {
    "/messages/{to}": {
      post: {
        operationId: "sendTo",
        summary: "Sends a message to one member of the staff.",
        parameters: [{ name: "to", in: "path", required: true, schema: { type: "string" } }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { text: { type: "string" } },
                required: ["text"],
              },
            },
          },
        },
        responses: { "201": { description: "Sent." } },
      },
    },
    "/items": {
      get: {
        operationId: "findItems",
        summary: "Finds items.",
        parameters: [{ name: "q", in: "query", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "The items." } },
      },
    },
  },
};

const LONE = "\uD800";

for (
  const [label, toolName, input, agent] of [
    ["a write's path parameter", "sendTo", { to: `a${LONE}`, body: { text: "oi" } }, {}],
    ["a read's query parameter", "findItems", { q: `x${LONE}` }, {}],
    [
      "a read that needs approval",
      "findItems",
      { q: `x${LONE}` },
      { approval: { findItems: "always" as const } },
    ],
  ] as const
) {
  Deno.test(`agents: a lone surrogate in ${label} ends the call with a tool error, and the chat goes on`, async () => {
    const model = createScriptedModel([
      { type: "tool-call", toolName, input },
      { type: "text", text: "Não consegui." },
      { type: "text", text: "Segunda resposta." },
    ]);
    const app = await startSpyAgentApp(model, { spec: SPEC, agent });
    try {
      const jar = new CookieJar();
      const id = newChatId();
      const first = await ask(app.server.url, jar, id, "Mande um recado");
      assert.equal(first.approvals.length, 0, "no card for a request that cannot be built");
      assert.equal(app.received.length, 0, "nothing was sent");
      // The model was told why, so it can answer (or correct itself).
      assert.match(JSON.stringify(model.calls[1]?.prompt ?? null), /not valid Unicode/);

      // Saved answered: a write (refused before its card) as a tool error, a read as the
      // agent tool's error output, as any other request that cannot be built.
      const saved = await app.server.services.store.loadMessages(id) as ChatMessage[];
      const part = saved[1].parts.find((p) => p.type === `tool-${toolName}`) as {
        state: string;
        output?: { error?: { message?: string } };
      };
      if (part.state === "output-available") {
        assert.match(part.output?.error?.message ?? "", /not valid Unicode/);
      } else {
        assert.equal(part.state, "output-error", "the tool error is saved in the chat");
      }

      const second = await ask(app.server.url, jar, id, "E agora?");
      assert.ok(second.chunks.some((c) => c.type === "text-delta"), "the next turn answers");
      const page = await jar.fetch(`${app.server.url}/c/${id}`);
      assert.equal(page.status, 200, "the chat's page renders");
      await page.body?.cancel();
      const history = await jar.fetch(`${app.server.url}/api/chats/${id}`);
      assert.equal(history.status, 200);
      await history.body?.cancel();
    } finally {
      await app.close();
    }
  });
}

Deno.test("agents: a chat saved with a tool call that never got its result goes on", async () => {
  const model = createScriptedModel([
    { type: "tool-call", toolName: "findItems", input: { q: "livros" } },
    { type: "text", text: "Achei." },
    { type: "text", text: "Segunda resposta." },
  ]);
  const app = await startSpyAgentApp(model, { spec: SPEC });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    await ask(app.server.url, jar, id, "Procure livros");
    // As a turn that failed mid-call saved it: the call without its output.
    const { store } = app.server.services;
    const answerId = (await store.loadMessages(id))[1].id;
    await store.updateMessage(id, answerId, (m) => ({
      ...m,
      parts: m.parts.map((p) =>
        p.type === "tool-findItems"
          ? { type: p.type, toolCallId: p.toolCallId, state: "input-available", input: p.input }
          : p
      ) as typeof m.parts,
    }));
    const next = await ask(app.server.url, jar, id, "E agora?");
    assert.ok(next.chunks.some((c) => c.type === "text-delta"), "the next turn answers");
    const prompt = JSON.stringify(model.calls.at(-1)?.prompt ?? null);
    assert.doesNotMatch(prompt, /"toolName":"findItems"/, "the unanswered call is left out");
  } finally {
    await app.close();
  }
});
