/**
 * The agent picker as the server renders it: shown on a new chat when there are two
 * agents (none with one), `?agent=` preselecting a known agent and ignoring an unknown
 * one, only id, name and description in the page, and a saved chat's answers labelled
 * with their agent's name, without a picker.
 */
import assert from "node:assert/strict";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
  waitForMessages,
} from "../support/chat_client.ts";
import { SHOP, SHOP_SECRET, twoAgents } from "../support/agents.ts";
import { startTestServer } from "../support/server.ts";
import { localize } from "@/lib/i18n/localized.ts";

const CONTACT_NAME = localize(testConfig().agents![0].name, "pt-BR");
const SHOP_NAME = localize(SHOP.name, "pt-BR");

/** The `<select>` of the agent picker in `html`, or null. */
function picker(html: string): string | null {
  return /<select[^>]*class="[^"]*agent-picker[^"]*"[^>]*>[\s\S]*?<\/select>/.exec(html)?.[0] ??
    null;
}

/** The agents' options of a picker: value, label, selected. */
function options(select: string) {
  return [...select.matchAll(/<option([^>]*)>([^<]*)<\/option>/g)].map(([, attrs, label]) => ({
    value: /value="([^"]*)"/.exec(attrs)?.[1] ?? null,
    label,
    selected: /\bselected\b/.test(attrs),
  }));
}

Deno.test("agent picker: two agents → a labelled picker with all agents first, selected", async () => {
  const server = await startTestServer({
    config: testConfig(),
    services: { agents: await twoAgents() },
  });
  try {
    const html = await (await fetch(server.url + "/")).text();
    const select = picker(html);
    assert.ok(select, "no agent picker on /");
    assert.match(select, /aria-label="Agente"/);
    assert.deepEqual(options(select), [
      { value: "", label: "Todos os agentes", selected: true },
      { value: "contact", label: CONTACT_NAME, selected: false },
      { value: "shop", label: SHOP_NAME, selected: false },
    ]);
    const en = await (await fetch(server.url + "/", { headers: { "Accept-Language": "en" } }))
      .text();
    assert.match(picker(en) ?? "", /aria-label="Agent"[\s\S]*>All agents</);
    // The page carries what the picker shows and nothing else of an agent.
    assert.ok(!html.includes(SHOP_SECRET), "the agent's secret header is in the page");
    assert.ok(!html.includes(SHOP.baseUrl), "the agent's baseUrl is in the page");
    assert.ok(!html.includes("X-Api-Token"), "the agent's header name is in the page");
    assert.ok(!html.includes(SHOP.spec), "the agent's spec path is in the page");
  } finally {
    await server.close();
  }
});

Deno.test("agent picker: ?agent= preselects a known agent; an unknown one is ignored", async () => {
  const server = await startTestServer({
    config: testConfig(),
    services: { agents: await twoAgents() },
  });
  try {
    const shop = await fetch(server.url + "/?agent=shop");
    assert.equal(shop.status, 200);
    const selected = options(picker(await shop.text()) ?? "").filter((o) => o.selected);
    assert.deepEqual(selected.map((o) => o.value), ["shop"]);
    const unknown = await fetch(server.url + "/?agent=nope");
    assert.equal(unknown.status, 200);
    const all = options(picker(await unknown.text()) ?? "").filter((o) => o.selected);
    assert.deepEqual(all.map((o) => o.value), [""]);
  } finally {
    await server.close();
  }
});

Deno.test("agent picker: none with a single agent", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    assert.equal(server.services.agentConfigs.length, 1);
    const html = await (await fetch(server.url + "/?agent=contact")).text();
    assert.match(html, /data-island="ChatMessages"/);
    assert.equal(picker(html), null);
  } finally {
    await server.close();
  }
});

Deno.test("agent picker: a saved chat has no picker and labels an answer by its agent's name", async () => {
  const server = await startTestServer({
    config: testConfig(),
    services: { agents: await twoAgents() },
  });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      trigger: "submit-message",
      message: userMessage("Onde está meu pedido?"),
      agent: "shop",
    }, { jar });
    assert.equal(res.status, 200);
    await readSse(res);
    const [, answer] = await waitForMessages(server.services.store, id, (m) => m.length === 2);
    // The label follows metadata.agentId, whatever set it.
    const shopAnswer = { ...answer, metadata: { ...answer.metadata, agentId: "shop" } };
    assert.ok(await server.services.store.replaceMessage(id, answer.id, shopAnswer));
    const html = await (await jar.fetch(`${server.url}/c/${id}`)).text();
    assert.equal(picker(html), null);
    assert.match(html, new RegExp(`<span class="agent-label">${SHOP_NAME}</span>`));
  } finally {
    await server.close();
  }
});
