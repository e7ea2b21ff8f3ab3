import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { agentChoices, chatAgent, knownAgent } from "./agents.ts";

const AGENTS = [
  { id: "contact", name: "Contato", description: "Fala com o dono." },
  { id: "shop", name: "Loja", description: "Pedidos." },
];

Deno.test("agentChoices: copies id, name and description only (no headers, no spec)", () => {
  const ready = [{
    agent: { ...AGENTS[0], spec: "static/agents/x.yaml", baseUrl: "self", runIn: "server" },
    headers: { Authorization: "Bearer secret" },
    operations: [],
  }];
  assert.deepEqual(agentChoices(ready, "pt-BR"), [AGENTS[0]]);
  const localized = [{
    agent: {
      ...ready[0].agent,
      name: { "pt-BR": "Contato", en: "Contact" },
      description: { "pt-BR": "Fala com o dono.", en: "Talks to the owner." },
    },
  }];
  assert.deepEqual(agentChoices(localized, "en"), [
    { id: "contact", name: "Contact", description: "Talks to the owner." },
  ]);
  assert.deepEqual(agentChoices(localized, "pt-BR"), [AGENTS[0]]);
});

Deno.test("knownAgent: an unknown or empty id is null", () => {
  assert.equal(knownAgent(AGENTS, "shop"), "shop");
  assert.equal(knownAgent(AGENTS, "nope"), null);
  assert.equal(knownAgent(AGENTS, ""), null);
  assert.equal(knownAgent(AGENTS, null), null);
});

Deno.test("chatAgent: the agent named by the last answer, not a model id", () => {
  const answer = (agentId: string): ChatMessage => ({
    id: agentId,
    role: "assistant",
    parts: [],
    metadata: { agentId },
  });
  const user: ChatMessage = { id: "u", role: "user", parts: [] };
  assert.equal(chatAgent(AGENTS, [user, answer("contact"), user, answer("shop"), user]), "shop");
  assert.equal(chatAgent(AGENTS, [user, answer("openai/gpt-5-mini")]), null);
  assert.equal(chatAgent(AGENTS, []), null);
});
