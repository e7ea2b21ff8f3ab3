/**
 * The chat a message to the owner came from is what the server says, never what a
 * visitor writes: the contact agent's call carries a sealed `X-Assistant-Context`,
 * and a visitor calling POST /api/contact with their own header gets no chat.
 */
import assert from "node:assert/strict";
import type { ApprovalChunk } from "../support/agent_app.ts";
import { ask, respond } from "../support/agent_app.ts";
import { CONTEXT_HEADER } from "@/lib/agents/request.ts";
import { hashVisitorId } from "@/lib/tools/agent_tools.ts";
import { CookieJar, newChatId } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

const RECADO =
  "Manda um recado pro dono do site dizendo que adorei o site. Meu nome é Ana e meu email é ana@example.com";

Deno.test("contact: the agent's message carries its chat; a visitor's own context header is ignored", async () => {
  const server = await startTestServer();
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const { approvals } = await ask(server.url, jar, id, RECADO);
    const [approval] = approvals as ApprovalChunk[];
    const approved = await respond(server.url, jar, id, [{
      approvalId: approval.approvalId,
      approved: true,
    }]);
    assert.equal(approved.status, 200);
    await approved.body?.cancel();
    const sent = (await server.services.contact.list()).messages;
    assert.equal(sent.length, 1);
    assert.equal(sent[0].context?.chatId, id, "the server-sealed context is kept");

    // The same visitor, straight to the API, claiming another visitor's chat.
    const victim = { chatId: newChatId(), locale: "pt-BR", visitor: await hashVisitorId("v") };
    const forged = await jar.fetch(`${server.url}/api/contact`, {
      method: "POST",
      headers: { "content-type": "application/json", [CONTEXT_HEADER]: JSON.stringify(victim) },
      body: JSON.stringify({ name: "Eva", email: "eva@example.com", message: "Forjado" }),
    });
    assert.equal(forged.status, 201);
    await forged.body?.cancel();
    const [latest] = (await server.services.contact.list()).messages;
    assert.equal(latest.message, "Forjado");
    assert.equal(latest.context, undefined, "a visitor-written context is not stored");
  } finally {
    await server.close();
  }
});
