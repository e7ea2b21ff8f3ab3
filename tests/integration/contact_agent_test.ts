/**
 * The built-in contact agent end to end, without a model: the app loads it with the chat
 * stack (baseUrl "self"), its tools run through the app in-process and land in the store;
 * a bad agent spec fails the chat stack with a message naming the agent, while pages serve.
 */
import assert from "node:assert/strict";
import type { ToolExecutionOptions } from "ai";
import { chatStack } from "@/lib/chat/lazy.ts";
import { turnTools } from "@/lib/tools/mod.ts";
import { newChatId, postChat, testConfig, userMessage } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

const CALL: ToolExecutionOptions<unknown> = {
  toolCallId: "c1",
  messages: [],
  abortSignal: new AbortController().signal,
  context: {},
};

Deno.test("contact agent: loaded with the chat stack, sendMessageToOwner waits for approval, then is stored", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const { services } = server;
    // Pages know the agent from the config; its spec loads with the chat stack.
    assert.deepEqual(services.agentConfigs.map((a) => a.id), ["contact"]);
    assert.equal(services.agents.length, 0);
    await chatStack(services);
    assert.deepEqual(services.agents.map((a) => a.agent.id), ["contact"]);
    assert.ok(services.selfApp);
    const turn = turnTools({
      search: services.search,
      agents: services.agents,
      origin: server.url,
      context: {
        chatId: "chat-1",
        locale: "pt-BR",
        visitor: "v-hash",
        origin: server.url,
        selfApp: services.selfApp,
        ip: "203.0.113.7",
        sealContext: (header) => services.contextSeal.seal(header, services.clock()),
      },
    });
    assert.equal(turn.approvalFor("getContactStatus", {}), null);
    assert.equal(turn.approvalFor("sendMessageToOwner", {})?.agent.agent.id, "contact");
    const body = { name: "Ana", email: "ana@example.com", message: "Adorei o site!" };
    const sent = await turn.tools.sendMessageToOwner.execute!({ body } as never, CALL as never);
    assert.ok("data" in (sent as object), JSON.stringify(sent));
    const { messages } = await services.contact.list();
    assert.equal(messages.length, 1);
    assert.equal(messages[0].name, "Ana");
    assert.equal(messages[0].message, "Adorei o site!");
    assert.deepEqual(messages[0].context, { chatId: "chat-1", locale: "pt-BR", visitor: "v-hash" });
    const status = await turn.tools.getContactStatus.execute!({} as never, CALL as never);
    assert.deepEqual(status, { data: { accepting: true, received: 1 } });
  } finally {
    await server.close();
  }
});

Deno.test("contact agent: a bad agent spec fails the chat stack with the agent's name; pages still serve", async () => {
  const config = testConfig({
    agents: [{
      id: "shop",
      name: "Shop",
      description: "Orders.",
      spec: "static/agents/missing.json",
      baseUrl: "https://api.example.com",
      runIn: "server",
    }],
  });
  const server = await startTestServer({ config, islandAssets: null });
  try {
    await assert.rejects(
      () => chatStack(server.services),
      /Agent "shop": the spec file "static\/agents\/missing\.json" does not exist\. Fix/,
    );
    const page = await fetch(server.url + "/");
    await page.body?.cancel();
    assert.equal(page.status, 200);
    const res = await postChat(server.url, {
      id: newChatId(),
      trigger: "submit-message",
      message: userMessage("Olá"),
    });
    assert.equal(res.status, 503);
    assert.equal((await res.json()).error.code, "unavailable");
  } finally {
    await server.close();
  }
});
