import assert from "node:assert/strict";
import { buildOperations, checkToolNames, loadAgent, loadSpecDocument } from "./spec.ts";
import { AgentConfigError } from "./types.ts";
import type { OpenApiAgentConfig } from "./types.ts";

const root = new URL("./testdata/", import.meta.url);

function contactAgent(extra: Partial<OpenApiAgentConfig> = {}): OpenApiAgentConfig {
  return {
    id: "contact",
    name: "Contact",
    description: "Messages for the site owner.",
    spec: "static/agents/contact.yaml",
    baseUrl: "https://api.example.com/v1",
    runIn: "server",
    ...extra,
  };
}

/** A minimal valid document with the given paths. */
function doc(paths: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { openapi: "3.1.0", info: { title: "T", version: "1" }, paths, ...extra };
}

const ok = { "200": { description: "ok" } };

async function buildError(document: unknown, agent = contactAgent()): Promise<AgentConfigError> {
  const error = await buildOperations(agent, document).then(
    () => assert.fail("expected an AgentConfigError"),
    (error) => error,
  );
  assert.ok(error instanceof AgentConfigError, String(error));
  return error;
}

/** Every build error names the agent and says how to fix it. */
function assertHelpful(error: unknown, ...mentions: string[]) {
  assert.ok(error instanceof AgentConfigError, String(error));
  assert.match(error.message, /Agent "contact"/);
  assert.match(error.message, /Fix/);
  for (const mention of mentions) assert.ok(error.message.includes(mention), error.message);
}

Deno.test("the contact spec file builds three tools with their input schemas", async () => {
  const { operations } = await loadAgent(contactAgent(), { root });
  assert.deepEqual(
    operations.map((op) => [op.toolName, op.method, op.pathTemplate, op.needsApproval]),
    [
      ["sendMessage", "POST", "/messages", true],
      ["getMessageStatus", "GET", "/messages/status", false],
      ["deleteMessage", "DELETE", "/messages/{messageId}", true],
    ],
  );
  const [send, status, remove] = operations;
  assert.equal(send.summary, "Send a message to the site owner");
  assert.deepEqual(send.inputSchema.required, ["body"]);
  const body = (send.inputSchema.properties as Record<string, Record<string, unknown>>).body;
  assert.deepEqual(body.required, ["name", "email", "message"]);
  // readOnly `id` is gone, `nullable` became a type union, the $ref was dereferenced.
  assert.deepEqual(Object.keys(body.properties as object), ["name", "email", "message", "phone"]);
  assert.deepEqual((body.properties as Record<string, { type: unknown }>).phone.type, [
    "string",
    "null",
  ]);
  assert.deepEqual(status.parameters.query.map((p) => p.name), ["id"]);
  // The Accept header parameter is ignored, as OpenAPI says.
  assert.deepEqual(status.parameters.header.map((p) => p.name), ["X-Request-Id"]);
  assert.deepEqual(status.inputSchema.required, ["id"]);
  assert.equal(status.inputSchema.additionalProperties, false);
  // Path-level parameters reach the operation, and path parameters are required.
  assert.deepEqual(remove.parameters.path.map((p) => [p.name, p.required]), [["messageId", true]]);
  assert.equal(remove.requestBody, undefined);
});

Deno.test("approval overrides the method rule per operation", async () => {
  const agent = contactAgent({ approval: { getMessageStatus: "always", deleteMessage: "never" } });
  const { operations } = await loadAgent(agent, { root });
  assert.deepEqual(operations.map((op) => op.needsApproval), [true, true, false]);
});

Deno.test("an approval entry for an unknown operation names the known ones", async () => {
  const error = await loadAgent(contactAgent({ approval: { sendMesage: "never" } }), { root })
    .catch((e) => e);
  assertHelpful(error, '"sendMesage"', '"sendMessage"');
  assert.equal(error.operationId, "sendMesage");
});

Deno.test("a spec that is not valid OpenAPI 3 stops the build with the validator's reasons", async () => {
  const error = await loadAgent(contactAgent({ spec: "static/agents/not_openapi.yaml" }), { root })
    .catch((e) => e);
  assert.ok(error instanceof AgentConfigError);
  assertHelpful(error, "not_openapi.yaml", "version");
});

Deno.test("a spec with broken YAML, a Swagger 2 spec and a missing file are explained", async () => {
  const broken: typeof fetch = () =>
    Promise.resolve(new Response("openapi: 3.0.3\ninfo: [unclosed\n"));
  const syntax = await loadAgent(
    contactAgent({ spec: "https://specs.example.com/broken.yaml" }),
    { fetch: broken },
  ).catch((e) => e);
  assertHelpful(syntax, "not valid JSON or YAML");
  const swagger = await buildError({ swagger: "2.0", info: { title: "T", version: "1" } });
  assertHelpful(swagger, "Swagger 2.0", "convert it to OpenAPI 3");
  const missing = await loadAgent(contactAgent({ spec: "static/agents/nope.yaml" }), { root })
    .catch((e) => e);
  assertHelpful(missing, "does not exist");
});

Deno.test("a spec path outside static/agents/ is refused", async () => {
  for (const spec of ["static/agents/../../spec_test.ts", "other/contact.yaml", "/etc/passwd"]) {
    const error = await loadSpecDocument(contactAgent({ spec }), { root }).catch((e) => e);
    assertHelpful(error, "not under static/agents/");
  }
});

Deno.test("a missing operationId names the method and path and suggests a name", async () => {
  const error = await buildError(doc({
    "/messages/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: ok,
      },
    },
  }));
  assertHelpful(error, "GET /messages/{id}", "no operationId", '"getMessagesId"');
});

Deno.test("two operations with the same operationId are both named", async () => {
  const error = await buildError(doc({
    "/a": { get: { operationId: "list", responses: ok } },
    "/b": { get: { operationId: "list", responses: ok } },
  }));
  assertHelpful(error, 'operation "list"', "GET /a", "GET /b", "rename one");
  assert.equal(error.operationId, "list");
});

Deno.test("a tool name providers refuse is explained with a valid suggestion", async () => {
  for (const id of ["send message", "a".repeat(65), "send.message"]) {
    const error = await buildError(doc({ "/a": { post: { operationId: id, responses: ok } } }));
    assertHelpful(error, `"${id}"`, "not a valid tool name");
  }
});

Deno.test("tool names clash across agents and with the chat's own tools", async () => {
  const a = await loadAgent(contactAgent(), { root });
  const b = await loadAgent(contactAgent({ id: "other" }), { root });
  assert.throws(() => checkToolNames([a, b]), /Agent "other", operation "sendMessage".*"contact"/);
  const search = {
    agent: contactAgent({ id: "finder" }),
    operations: [{ ...a.operations[1], toolName: "search" }],
  };
  assert.throws(() => checkToolNames([search], ["search"]), /the chat itself.*Fix/);
  checkToolNames([a], ["search"]);
});

Deno.test("external and circular references are refused", async () => {
  const external = await buildError(doc({
    "/a": {
      post: {
        operationId: "send",
        requestBody: { content: { "application/json": { schema: { $ref: "/etc/passwd" } } } },
        responses: ok,
      },
    },
  }));
  assertHelpful(external, 'operation "send"', '"/etc/passwd"', "bundle");
  const circular = await buildError(doc({
    "/a": {
      post: {
        operationId: "send",
        requestBody: {
          content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } },
        },
        responses: ok,
      },
    },
  }, {
    components: {
      schemas: {
        Node: { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } },
      },
    },
  }));
  assertHelpful(circular, "circular", "non-recursive");
});

Deno.test("clashing argument names, cookies and non-JSON bodies are explained", async () => {
  const clash = await buildError(doc({
    "/a/{id}": {
      get: {
        operationId: "get",
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string" } },
          { name: "id", in: "query", schema: { type: "string" } },
        ],
        responses: ok,
      },
    },
  }));
  assertHelpful(clash, 'operation "get"', '"id"', "rename one");
  const bodyName = await buildError(doc({
    "/a": {
      post: {
        operationId: "post",
        parameters: [{ name: "body", in: "query", schema: { type: "string" } }],
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        responses: ok,
      },
    },
  }));
  assertHelpful(bodyName, '"body"', "rename the parameter");
  const cookie = await buildError(doc({
    "/a": {
      get: {
        operationId: "get",
        parameters: [{ name: "session", in: "cookie", required: true, schema: { type: "string" } }],
        responses: ok,
      },
    },
  }));
  assertHelpful(cookie, '"session"', "header");
  const form = await buildError(doc({
    "/a": {
      post: {
        operationId: "upload",
        requestBody: {
          required: true,
          content: { "multipart/form-data": { schema: { type: "object" } } },
        },
        responses: ok,
      },
    },
  }));
  assertHelpful(form, "multipart/form-data", "application/json");
});

Deno.test("a spec URL is fetched over https, and its failures are explained", async () => {
  const text = await Deno.readTextFile(new URL("static/agents/contact.yaml", root));
  const seen: string[] = [];
  const fakeFetch: typeof fetch = (input) => {
    seen.push(String(input));
    return Promise.resolve(new Response(text));
  };
  const agent = contactAgent({ spec: "https://specs.example.com/contact.yaml" });
  const { operations } = await loadAgent(agent, { fetch: fakeFetch });
  assert.equal(operations.length, 3);
  assert.deepEqual(seen, ["https://specs.example.com/contact.yaml"]);
  const notFound: typeof fetch = () => Promise.resolve(new Response("no", { status: 404 }));
  assertHelpful(await loadAgent(agent, { fetch: notFound }).catch((e) => e), "HTTP 404");
  const http = contactAgent({ spec: "http://specs.example.com/contact.yaml" });
  assertHelpful(await loadAgent(http, { fetch: fakeFetch }).catch((e) => e), "not https");
  const huge: typeof fetch = () => Promise.resolve(new Response("x".repeat(2000)));
  assertHelpful(await loadAgent(agent, { fetch: huge, maxBytes: 1000 }).catch((e) => e), "1000");
});

Deno.test("loadAgent checks the agent's config before reading its spec", async () => {
  const error = await loadAgent(contactAgent({ baseUrl: "http://api.example.com" }), { root })
    .catch((e) => e);
  assertHelpful(error, "not https");
});
