/**
 * Two agents for tests of the agent picker: the built-in contact agent of the default
 * config and a small "shop" agent built from an inline spec, with a secret header.
 */
import { buildOperations } from "@/lib/agents/spec.ts";
import type { OpenApiAgentConfig } from "@/lib/agents/types.ts";
import type { ReadyAgent } from "@/lib/tools/agent_tools.ts";
import { loadAgents, readyAgents } from "@/lib/tools/load_agents.ts";
import { testConfig } from "./chat_client.ts";

/** The shop agent's header value: a secret that must never reach a page. */
export const SHOP_SECRET = "shop-s3cret-token";

/** The shop agent as configured. */
export const SHOP: OpenApiAgentConfig = {
  id: "shop",
  name: { "pt-BR": "Loja Exemplo", en: "Example Shop" },
  description: { "pt-BR": "Consulta os pedidos da loja.", en: "Looks up the shop's orders." },
  spec: "static/agents/shop.json",
  baseUrl: "https://shop.example.test/api",
  runIn: "server",
  headers: { "X-Api-Token": "${SHOP_TOKEN}" },
};

const SHOP_SPEC = {
  openapi: "3.1.0",
  info: { title: "Shop", version: "1.0.0" },
  paths: {
    "/orders": {
      get: {
        operationId: "listShopOrders",
        summary: "Lists the orders.",
        responses: { "200": { description: "the orders" } },
      },
    },
  },
};

/** The contact agent of the default config, then the shop agent: ready for `services.agents`. */
export async function twoAgents(): Promise<ReadyAgent[]> {
  const contact = await loadAgents(testConfig().agents ?? []);
  const shop = { agent: SHOP, operations: await buildOperations(SHOP, SHOP_SPEC) };
  return readyAgents([...contact, shop], { SHOP_TOKEN: SHOP_SECRET });
}
