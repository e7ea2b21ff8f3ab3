import assert from "node:assert/strict";
import type { ToolExecutionOptions, ToolSet } from "ai";
import { buildOperations, type LoadedAgent } from "@/lib/agents/spec.ts";
import type { AgentConfig } from "@/lib/agents/types.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import {
  type AgentToolContext,
  agentTools,
  describeForApproval,
  hashVisitorId,
  needsApproval,
  type ReadyAgent,
  readyAgent,
  SELF_BASE_URL,
} from "./agent_tools.ts";
import { loadAgents } from "./load_agents.ts";
import { turnTools } from "./mod.ts";
import { SEARCH_TOOL } from "./search_site.ts";

/** A loopback stand-in for an agent's API that records every request it receives. */
function startApi() {
  const received: { method: string; url: string; headers: Headers; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: await req.text(),
    });
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/v1/items") {
      return Response.json({ items: [url.searchParams.get("q")] });
    }
    if (req.method === "POST") return Response.json({ id: "m1" }, { status: 201 });
    return Response.json({ message: "No such thing." }, { status: 404 });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { base: `http://127.0.0.1:${port}/v1`, received, close: () => server.shutdown() };
}

const SPEC = {
  openapi: "3.1.0",
  info: { title: "Items", version: "1" },
  paths: {
    "/items": {
      get: {
        operationId: "listItems",
        summary: "List items",
        parameters: [{ name: "q", in: "query", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok" } },
      },
      post: {
        operationId: "createItem",
        summary: "Create an item",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name"],
                additionalProperties: false,
                properties: { name: { type: "string", minLength: 1 } },
              },
            },
          },
        },
        responses: { "201": { description: "created" } },
      },
    },
  },
};

function config(base: string, extra: Partial<AgentConfig> = {}): AgentConfig {
  return {
    id: "items",
    name: "Items",
    description: "Items of the shop.",
    spec: "static/agents/items.json",
    baseUrl: base,
    runIn: "server",
    local: true,
    headers: { "X-Api-Token": "${ITEMS_TOKEN}" },
    ...extra,
  };
}

async function ready(base: string, extra: Partial<AgentConfig> = {}): Promise<ReadyAgent> {
  const agent = config(base, extra);
  const loaded: LoadedAgent = { agent, operations: await buildOperations(agent, SPEC) };
  return readyAgent(loaded, { ITEMS_TOKEN: "s3cret" });
}

const context: AgentToolContext = {
  chatId: "chat1",
  locale: "pt-BR",
  visitor: "v-hash",
  origin: "https://site.test",
};

const CALL: ToolExecutionOptions<unknown> = {
  toolCallId: "c1",
  messages: [],
  abortSignal: new AbortController().signal,
  context: {},
};

function exec(tools: ToolSet, name: string, input: unknown): Promise<unknown> {
  const execute = tools[name].execute;
  assert.ok(execute, `${name} has no execute`);
  return Promise.resolve(execute(input as never, CALL as never));
}

Deno.test("a GET operation runs at once: the exact request reaches the API, data comes back", async () => {
  const api = startApi();
  try {
    const tools = agentTools(await ready(api.base), context);
    assert.equal(tools.listItems.needsApproval, false);
    const output = await exec(tools, "listItems", { q: "a b/ç" });
    assert.deepEqual(output, { data: { items: ["a b/ç"] } });
    assert.equal(api.received.length, 1);
    const [got] = api.received;
    assert.equal(got.method, "GET");
    assert.equal(got.url, `${api.base}/items?q=a%20b%2F%C3%A7`);
    assert.equal(got.headers.get("x-api-token"), "s3cret");
    assert.deepEqual(JSON.parse(got.headers.get("x-assistant-context")!), {
      chatId: "chat1",
      locale: "pt-BR",
      visitor: "v-hash",
    });
  } finally {
    await api.close();
  }
});

Deno.test("a POST operation's tool needs approval; when run it sends the JSON body", async () => {
  const api = startApi();
  try {
    const tools = agentTools(await ready(api.base), context);
    assert.equal(tools.createItem.needsApproval, true);
    assert.equal(tools.createItem.description, "Create an item");
    const output = await exec(tools, "createItem", { body: { name: "Lamp" } });
    assert.deepEqual(output, { data: { id: "m1" } });
    assert.equal(api.received[0].body, '{"name":"Lamp"}');
    assert.equal(api.received[0].headers.get("content-type"), "application/json");
  } finally {
    await api.close();
  }
});

Deno.test("invalid arguments send nothing and come back as an error naming the problem", async () => {
  const api = startApi();
  try {
    const tools = agentTools(await ready(api.base), context);
    for (
      const input of [{}, { body: { name: "" } }, { body: { name: "x", extra: 1 } }, { q: 3 }]
    ) {
      const name = "q" in input ? "listItems" : "createItem";
      const output = await exec(tools, name, input) as {
        error: { status: number; message: string };
      };
      assert.equal(output.error.status, 0, JSON.stringify(output));
      assert.match(output.error.message, /nothing was sent/);
    }
    const missing = await exec(tools, "createItem", {}) as { error: { message: string } };
    assert.match(missing.error.message, /body/);
    assert.equal(api.received.length, 0);
  } finally {
    await api.close();
  }
});

Deno.test("an HTTP error of the API is an error, never data", async () => {
  const api = startApi();
  try {
    const agent = await ready(`${api.base}/missing`);
    const output = await exec(agentTools(agent, context), "listItems", { q: "x" });
    assert.deepEqual(output, { error: { status: 404, message: "No such thing." } });
  } finally {
    await api.close();
  }
});

Deno.test("a browser-run agent's tools have no execute, and keep the approval rule", async () => {
  const agent = await ready("http://localhost:9999/v1", { runIn: "browser", headers: {} });
  const tools = agentTools(agent, context);
  assert.equal(tools.listItems.execute, undefined);
  assert.equal(tools.createItem.execute, undefined);
  assert.equal(tools.listItems.needsApproval, false);
  assert.equal(tools.createItem.needsApproval, true);
});

Deno.test("needsApproval: GET and HEAD no, other methods yes, the agent's approval wins", () => {
  const none = {};
  for (const method of ["GET", "HEAD"] as const) {
    assert.equal(needsApproval({ method, toolName: "t" }, none), false);
  }
  for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
    assert.equal(needsApproval({ method, toolName: "t" }, none), true);
  }
  assert.equal(
    needsApproval({ method: "GET", toolName: "t" }, { approval: { t: "always" } }),
    true,
  );
  assert.equal(
    needsApproval({ method: "POST", toolName: "t" }, { approval: { t: "never" } }),
    false,
  );
  assert.equal(
    needsApproval({ method: "POST", toolName: "t" }, { approval: { u: "never" } }),
    true,
  );
});

Deno.test("describeForApproval: the exact request with the agent's secret headers redacted", async () => {
  const agent = await ready("https://api.example.com/v1", {
    local: false,
    headers: { "X-Shop": "${ITEMS_TOKEN}" },
  });
  const create = agent.operations.find((op) => op.toolName === "createItem")!;
  const view = describeForApproval(create, agent, { body: { name: "Lamp" } }, context);
  assert.ok("request" in view);
  assert.deepEqual(view.request, {
    method: "POST",
    url: "https://api.example.com/v1/items",
    headers: {
      "X-Shop": "••••",
      "X-Assistant-Context": '{"chatId":"chat1","locale":"pt-BR","visitor":"v-hash"}',
      "content-type": "application/json",
    },
    body: '{\n  "name": "Lamp"\n}',
  });
  assert.deepEqual(view.edit, { operation: create, baseUrl: "https://api.example.com/v1" });
  assert.ok(!JSON.stringify(view).includes("s3cret"));
  const invalid = describeForApproval(create, agent, { body: {} }, context);
  assert.ok("error" in invalid && /name/.test(invalid.error.message));
});

Deno.test('a "self" agent is this app: its base URL is the turn origin, calls go in-process', async () => {
  const agent = await ready(SELF_BASE_URL, { local: undefined, headers: {} });
  const seen: { url: string; ip: string }[] = [];
  const selfApp = (req: Request, info?: Deno.ServeHandlerInfo) => {
    seen.push({ url: req.url, ip: (info?.remoteAddr as Deno.NetAddr).hostname });
    return Promise.resolve(Response.json({ items: [] }));
  };
  const list = agent.operations.find((op) => op.toolName === "listItems")!;
  const view = describeForApproval(list, agent, { q: "x" }, context);
  assert.ok("request" in view);
  assert.equal(view.request.url, "https://site.test/items?q=x");
  assert.equal(view.edit.baseUrl, "https://site.test/");
  const tools = agentTools(agent, { ...context, selfApp, ip: "203.0.113.9" });
  assert.deepEqual(await exec(tools, "listItems", { q: "x" }), { data: { items: [] } });
  assert.deepEqual(seen, [{ url: "https://site.test/items?q=x", ip: "203.0.113.9" }]);
});

Deno.test('without the app, a "self" agent on a loopback origin is refused by the network policy', async () => {
  const api = startApi();
  try {
    const agent = await ready(SELF_BASE_URL, { local: undefined, headers: {} });
    const origin = new URL(api.base).origin;
    const output = await exec(agentTools(agent, { ...context, origin }), "listItems", { q: "x" });
    assert.equal((output as { error: { status: number } }).error.status, 0);
    assert.equal(api.received.length, 0);
  } finally {
    await api.close();
  }
});

Deno.test("hashVisitorId is stable, short and not the id", async () => {
  const a = await hashVisitorId("visitor-1");
  assert.equal(a, await hashVisitorId("visitor-1"));
  assert.notEqual(a, await hashVisitorId("visitor-2"));
  assert.match(a, /^[A-Za-z0-9_-]{22}$/);
  // Remembered for the visitors seen lately, and the same after being forgotten.
  await Promise.all(Array.from({ length: 1_500 }, (_, i) => hashVisitorId(`other-${i}`)));
  assert.equal(await hashVisitorId("visitor-1"), a);
});

const search: SiteSearch = {
  search: () => Promise.resolve({ mode: "lexical", passages: [] }),
  passage: () => null,
  status: () => ({ status: "unavailable", error: "not used" }),
};

Deno.test("turnTools: the search and every operation, and which calls wait for the visitor", async () => {
  const agent = await ready("https://api.example.com/v1", { local: false });
  const turn = turnTools({
    search,
    agents: [agent],
    origin: "https://site.test",
    context,
  });
  assert.deepEqual(
    Object.keys(turn.tools).sort(),
    [SEARCH_TOOL, "create_artifact", "createItem", "listItems"].sort(),
  );
  assert.equal(turn.approvalFor(SEARCH_TOOL, { query: "x" }), null);
  assert.equal(turn.approvalFor("listItems", { q: "x" }), null);
  assert.equal(turn.approvalFor("nope", {}), null);
  const target = turn.approvalFor("createItem", { body: { name: "x" } });
  assert.equal(target?.agent, agent);
  assert.equal(target?.operation.toolName, "createItem");
  assert.equal(turn.agentFor("listItems")?.operation.method, "GET");
  assert.equal(turn.agentFor(SEARCH_TOOL), null);
});

Deno.test("loadAgents: the built-in contact agent loads; search_site is reserved", async () => {
  const contact: AgentConfig = {
    id: "contact",
    name: "Contact",
    description: "Messages for the owner.",
    spec: "static/agents/contact.json",
    baseUrl: SELF_BASE_URL,
    runIn: "server",
  };
  const [loaded] = await loadAgents([contact]);
  assert.equal(loaded.agent, contact);
  assert.deepEqual(loaded.operations.map((op) => [op.toolName, op.method]), [
    ["sendMessageToOwner", "POST"],
    ["getContactStatus", "GET"],
  ]);
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/static/agents`, { recursive: true });
    const clash = structuredClone(SPEC);
    (clash.paths["/items"].get as { operationId: string }).operationId = SEARCH_TOOL;
    await Deno.writeTextFile(`${root}/static/agents/items.json`, JSON.stringify(clash));
    await assert.rejects(
      () =>
        loadAgents([config("https://api.example.com/v1")], { root: new URL(`file://${root}/`) }),
      /Agent "items", operation "search_site": the chat itself already has a tool with this name/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the agent's configured headers do not follow a redirect out of its base path", async () => {
  const tokens: Record<string, string | null> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { pathname } = new URL(req.url);
    tokens[pathname] = req.headers.get("x-api-token");
    if (pathname === "/v1/items") {
      return new Response(null, { status: 302, headers: { location: "/other-api/items" } });
    }
    return Response.json({ items: [] });
  });
  try {
    const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/v1`;
    const tools = agentTools(await ready(base), context);
    assert.deepEqual(await exec(tools, "listItems", { q: "x" }), { data: { items: [] } });
    assert.deepEqual(tokens, { "/v1/items": "s3cret", "/other-api/items": null });
  } finally {
    await server.shutdown();
  }
});
