import assert from "node:assert/strict";
import {
  type AgentRequest,
  type AssistantContext,
  buildRequest,
  describeRequest,
  REDACTED,
  redactHeaders,
  type RequestBuildError,
} from "./request.ts";
import type { AgentOperation, AgentParameter, HttpMethod } from "./types.ts";

const BASE = "https://api.example.com/v1";

function param(name: string, where: AgentParameter["in"], required = false): AgentParameter {
  return { name, in: where, required: where === "path" || required, schema: {} };
}

function op(
  method: HttpMethod,
  pathTemplate: string,
  params: AgentParameter[] = [],
  body?: { required: boolean },
): AgentOperation {
  return {
    agentId: "test",
    toolName: "call",
    method,
    pathTemplate,
    parameters: {
      path: params.filter((p) => p.in === "path"),
      query: params.filter((p) => p.in === "query"),
      header: params.filter((p) => p.in === "header"),
    },
    ...(body ? { requestBody: { ...body, schema: { type: "object" } } } : {}),
    inputSchema: { type: "object" },
    needsApproval: method !== "GET" && method !== "HEAD",
  };
}

const getById = op("GET", "/items/{id}", [param("id", "path")]);
const fileOp = op("GET", "/files/{name}.json", [param("name", "path")]);
const search = op("GET", "/search", [param("q", "query", true)]);
const headOp = op("HEAD", "/items/{id}", [param("id", "path")]);
const create = op("POST", "/items", [param("dryRun", "query")], { required: true });
const update = op("PUT", "/items/{id}", [param("id", "path")], { required: true });
const patch = op("PATCH", "/items/{id}", [param("id", "path")], { required: false });
const remove = op("DELETE", "/items/{id}", [param("id", "path")]);
const withHeader = op("GET", "/me", [
  param("X-Tenant", "header", true),
  param("X-Trace", "header"),
]);
const context: AssistantContext = { chatId: "c1", locale: "pt-BR", visitor: "v-hash" };

type Case = {
  name: string;
  operation: AgentOperation;
  args: Record<string, unknown>;
  baseUrl?: string;
  headers?: Record<string, string>;
  metadata?: AssistantContext;
  /** Expected request fields (only those given are compared). */
  expect?: Partial<AgentRequest>;
  /** Expected error code and a fragment of its message. */
  error?: [RequestBuildError["code"], string];
};

const cases: Case[] = [
  // Path parameters: traversal is data, never structure.
  {
    name: "plain path parameter",
    operation: getById,
    args: { id: "42" },
    expect: { url: `${BASE}/items/42` },
  },
  {
    name: "number path parameter",
    operation: getById,
    args: { id: 7 },
    expect: { url: `${BASE}/items/7` },
  },
  {
    name: "../admin is one encoded segment",
    operation: getById,
    args: { id: "../admin" },
    expect: { url: `${BASE}/items/..%2Fadmin` },
  },
  {
    name: "../../.. stays inside",
    operation: getById,
    args: { id: "../../../etc/passwd" },
    expect: { url: `${BASE}/items/..%2F..%2F..%2Fetc%2Fpasswd` },
  },
  {
    name: "a lone .. is refused",
    operation: getById,
    args: { id: ".." },
    error: ["invalid_parameter", '".."'],
  },
  {
    name: "a lone . is refused",
    operation: getById,
    args: { id: "." },
    error: ["invalid_parameter", '"."'],
  },
  {
    name: "an empty value is refused",
    operation: getById,
    args: { id: "" },
    error: ["invalid_parameter", '"id"'],
  },
  {
    name: "%2e%2e is double-encoded",
    operation: getById,
    args: { id: "%2e%2e" },
    expect: { url: `${BASE}/items/%252e%252e` },
  },
  {
    name: "%2e%2e%2fadmin is double-encoded",
    operation: getById,
    args: { id: "%2e%2e%2fadmin" },
    expect: { url: `${BASE}/items/%252e%252e%252fadmin` },
  },
  {
    name: "a slash is encoded",
    operation: getById,
    args: { id: "a/b" },
    expect: { url: `${BASE}/items/a%2Fb` },
  },
  {
    name: "a lone slash is encoded",
    operation: getById,
    args: { id: "/" },
    expect: { url: `${BASE}/items/%2F` },
  },
  {
    name: "a backslash is encoded",
    operation: getById,
    args: { id: "..\\admin" },
    expect: { url: `${BASE}/items/..%5Cadmin` },
  },
  {
    name: "an encoded slash is double-encoded",
    operation: getById,
    args: { id: "a%2Fb" },
    expect: { url: `${BASE}/items/a%252Fb` },
  },
  {
    name: "? and # cannot start a query or fragment",
    operation: getById,
    args: { id: "x?admin=1#y" },
    expect: { url: `${BASE}/items/x%3Fadmin%3D1%23y` },
  },
  {
    name: "an absolute URL is one segment",
    operation: getById,
    args: { id: "https://evil.example/x" },
    expect: { url: `${BASE}/items/https%3A%2F%2Fevil.example%2Fx` },
  },
  {
    name: "unicode is percent-encoded UTF-8",
    operation: getById,
    args: { id: "ação 🙂" },
    expect: { url: `${BASE}/items/a%C3%A7%C3%A3o%20%F0%9F%99%82` },
  },
  {
    name: ".. is refused even beside literal text",
    operation: fileOp,
    args: { name: ".." },
    error: ["invalid_parameter", '".."'],
  },
  {
    name: "dots inside a value are kept",
    operation: fileOp,
    args: { name: "a..b" },
    expect: { url: `${BASE}/files/a..b.json` },
  },
  {
    name: "a missing path parameter builds nothing",
    operation: getById,
    args: {},
    error: ["missing_parameter", '"id"'],
  },
  {
    name: "a null path parameter is missing",
    operation: getById,
    args: { id: null },
    error: ["missing_parameter", '"id"'],
  },
  // Query strings.
  {
    name: "GET sends remaining arguments as the query",
    operation: getById,
    args: { id: "1", q: "a b", page: 2 },
    expect: { url: `${BASE}/items/1?q=a%20b&page=2` },
  },
  {
    name: "null and undefined are dropped",
    operation: search,
    args: { q: "x", a: null, b: undefined },
    expect: { url: `${BASE}/search?q=x` },
  },
  {
    name: "arrays repeat the name",
    operation: search,
    args: { q: "x", tag: [1, "two", null] },
    expect: { url: `${BASE}/search?q=x&tag=1&tag=two` },
  },
  {
    name: "objects are JSON strings",
    operation: search,
    args: { q: { a: [1] } },
    expect: { url: `${BASE}/search?q=%7B%22a%22%3A%5B1%5D%7D` },
  },
  {
    name: "booleans are text",
    operation: search,
    args: { q: "x", exact: false },
    expect: { url: `${BASE}/search?q=x&exact=false` },
  },
  {
    name: "unicode and & in a query value",
    operation: search,
    args: { q: "café&x=1" },
    expect: { url: `${BASE}/search?q=caf%C3%A9%26x%3D1` },
  },
  {
    name: "HEAD uses the query too and sends no body",
    operation: headOp,
    args: { id: "1", body: { a: 1 } },
    expect: { method: "HEAD", url: `${BASE}/items/1?body=%7B%22a%22%3A1%7D`, body: undefined },
  },
  // Bodies.
  {
    name: "POST sends body as JSON",
    operation: create,
    args: { body: { name: "Ana" } },
    expect: {
      method: "POST",
      url: `${BASE}/items`,
      body: '{"name":"Ana"}',
      headers: { "content-type": "application/json" },
    },
  },
  {
    name: "POST keeps declared query parameters in the query",
    operation: create,
    args: { dryRun: true, body: {} },
    expect: { url: `${BASE}/items?dryRun=true`, body: "{}" },
  },
  {
    name: "POST refuses an undeclared argument",
    operation: create,
    args: { body: {}, admin: true },
    error: ["unknown_argument", '"admin"'],
  },
  {
    name: "POST without a required body builds nothing",
    operation: create,
    args: {},
    error: ["missing_parameter", '"body"'],
  },
  {
    name: "PUT substitutes the path and sends the body",
    operation: update,
    args: { id: "a b", body: { x: 1 } },
    expect: { method: "PUT", url: `${BASE}/items/a%20b`, body: '{"x":1}' },
  },
  {
    name: "PATCH without an optional body sends none",
    operation: patch,
    args: { id: "1" },
    expect: { method: "PATCH", body: undefined, headers: {} },
  },
  {
    name: "PATCH with a body",
    operation: patch,
    args: { id: "1", body: [1, 2] },
    expect: { body: "[1,2]" },
  },
  {
    name: "DELETE sends no body unless given",
    operation: remove,
    args: { id: "1" },
    expect: { method: "DELETE", url: `${BASE}/items/1`, body: undefined },
  },
  {
    name: "DELETE with a body",
    operation: remove,
    args: { id: "1", body: { reason: "spam" } },
    expect: { body: '{"reason":"spam"}' },
  },
  // Headers.
  {
    name: "header parameters become headers",
    operation: withHeader,
    args: { "X-Tenant": "acme", "X-Trace": 5 },
    expect: { url: `${BASE}/me`, headers: { "X-Tenant": "acme", "X-Trace": "5" } },
  },
  {
    name: "a missing required header builds nothing",
    operation: withHeader,
    args: {},
    error: ["missing_parameter", '"X-Tenant"'],
  },
  {
    name: "CR/LF in a header value is refused",
    operation: withHeader,
    args: { "X-Tenant": "a\r\nX-Admin: 1" },
    error: ["invalid_parameter", '"X-Tenant"'],
  },
  {
    name: "unicode in a header value is refused",
    operation: withHeader,
    args: { "X-Tenant": "ação" },
    error: ["invalid_parameter", "ASCII"],
  },
  {
    name: "configured headers win over header parameters",
    operation: withHeader,
    args: { "X-Tenant": "evil" },
    headers: { "x-tenant": "acme", Authorization: "Bearer s3cret" },
    expect: { headers: { "x-tenant": "acme", Authorization: "Bearer s3cret" } },
  },
  {
    name: "the metadata header carries the visitor context",
    operation: search,
    args: { q: "x" },
    metadata: context,
    expect: {
      headers: { "X-Assistant-Context": '{"chatId":"c1","locale":"pt-BR","visitor":"v-hash"}' },
    },
  },
  {
    name: "non-ASCII metadata is escaped JSON",
    operation: search,
    args: { q: "x" },
    metadata: { ...context, chatId: "ç" },
    expect: {
      headers: {
        "X-Assistant-Context": '{"chatId":"\\u00e7","locale":"pt-BR","visitor":"v-hash"}',
      },
    },
  },
  // Base URLs.
  {
    name: "a trailing slash on the base is not doubled",
    operation: search,
    args: { q: "1" },
    baseUrl: `${BASE}/`,
    expect: { url: `${BASE}/search?q=1` },
  },
  {
    name: "a bare origin base",
    operation: search,
    args: { q: "1" },
    baseUrl: "http://127.0.0.1:8080",
    expect: { url: "http://127.0.0.1:8080/search?q=1" },
  },
  {
    name: "a template with .. cannot leave the base",
    operation: op("GET", "/../admin"),
    args: {},
    error: ["outside_base_url", "leaves"],
  },
  {
    name: "a base with a query is refused",
    operation: search,
    args: { q: "1" },
    baseUrl: `${BASE}?k=1`,
    error: ["invalid_base_url", "not an http(s) URL"],
  },
  {
    name: "a non-http base is refused",
    operation: search,
    args: { q: "1" },
    baseUrl: "file:///etc",
    error: ["invalid_base_url", "file:///etc"],
  },
];

for (const c of cases) {
  Deno.test(`buildRequest: ${c.name}`, () => {
    const built = buildRequest(c.operation, c.args, {
      baseUrl: c.baseUrl ?? BASE,
      headers: c.headers,
      metadata: c.metadata,
    });
    if (c.error) {
      assert.ok("error" in built, `expected an error, built ${JSON.stringify(built)}`);
      assert.equal(built.error.code, c.error[0]);
      assert.ok(built.error.message.includes(c.error[1]), built.error.message);
      assert.match(built.error.message, /^[A-Z]/);
      return;
    }
    assert.ok("request" in built, JSON.stringify(built));
    for (const [key, value] of Object.entries(c.expect ?? {})) {
      assert.deepEqual(built.request[key as keyof AgentRequest], value, key);
    }
    // Whatever was built stays under the base URL once parsed.
    const url = new URL(built.request.url);
    const base = new URL(c.baseUrl ?? BASE);
    assert.equal(url.origin, base.origin);
    assert.ok(url.pathname.startsWith(base.pathname.replace(/\/$/, "")));
  });
}

Deno.test("buildRequest: a base path prefix is not matched by a longer sibling", () => {
  const built = buildRequest(op("GET", "/../v10/x"), {}, { baseUrl: BASE });
  assert.ok("error" in built && built.error.code === "outside_base_url");
});

Deno.test("redactHeaders hides secrets by name and the agent's configured headers", () => {
  const headers = {
    Authorization: "Bearer a",
    Cookie: "s=1",
    "X-Api-Key": "k",
    "X-Auth-User": "u",
    "X-Session-Token": "t",
    "Client-Secret": "s",
    apikey: "k2",
    "X-Tenant": "acme",
    "X-Assistant-Context": "{}",
    "content-type": "application/json",
  };
  assert.deepEqual(redactHeaders(headers, ["x-tenant"]), {
    Authorization: REDACTED,
    Cookie: REDACTED,
    "X-Api-Key": REDACTED,
    "X-Auth-User": REDACTED,
    "X-Session-Token": REDACTED,
    "Client-Secret": REDACTED,
    apikey: REDACTED,
    "X-Tenant": REDACTED,
    "X-Assistant-Context": "{}",
    "content-type": "application/json",
  });
});

Deno.test("describeRequest shows the final URL, redacted headers and a pretty body", () => {
  const built = buildRequest(create, { dryRun: false, body: { name: "Ana", tags: ["a"] } }, {
    baseUrl: BASE,
    headers: { Authorization: "Bearer s3cret", "X-Org": "7" },
    metadata: context,
  });
  assert.ok("request" in built);
  const shown = describeRequest(built.request, ["X-Org"]);
  assert.equal(shown.method, "POST");
  assert.equal(shown.url, `${BASE}/items?dryRun=false`);
  assert.equal(shown.headers.Authorization, REDACTED);
  assert.equal(shown.headers["X-Org"], REDACTED);
  assert.equal(shown.headers["content-type"], "application/json");
  assert.equal(shown.body, '{\n  "name": "Ana",\n  "tags": [\n    "a"\n  ]\n}');
  assert.ok(!JSON.stringify(shown).includes("s3cret"));
  // The request itself keeps the real values.
  assert.equal(built.request.headers.Authorization, "Bearer s3cret");
});

Deno.test("request.ts stays browser-safe: type-only imports and no Deno APIs", async () => {
  const source = await Deno.readTextFile(new URL("./request.ts", import.meta.url));
  const imports = source.match(/^import .*$/gm) ?? [];
  for (const line of imports) assert.match(line, /^import type /, line);
  assert.ok(!/\bDeno\./.test(source));
});

Deno.test("buildRequest: a lone surrogate in a path, query or argument name is an error, never a throw", () => {
  const cases: Array<[AgentOperation, Record<string, unknown>, string]> = [
    [getById, { id: "a\uD800" }, "id"],
    [search, { q: "\uDC00x" }, "q"],
    [search, { q: ["ok", "b\uD800"] }, "q"],
    [search, { q: "ok", ["n\uD800"]: "v" }, "n\uD800"],
    [create, { dryRun: "\uD83D", body: {} }, "dryRun"],
  ];
  for (const [operation, args, parameter] of cases) {
    const built = buildRequest(operation, args, { baseUrl: BASE });
    assert.ok("error" in built, `${JSON.stringify(args)} builds no request`);
    assert.equal(built.error.code, "invalid_parameter");
    assert.equal(built.error.parameter, parameter);
    assert.match(built.error.message, /not valid Unicode/);
  }
  // A whole surrogate pair is a character like any other.
  const ok = buildRequest(search, { q: "\uD83D\uDE00" }, { baseUrl: BASE });
  assert.ok("request" in ok);
  assert.equal(ok.request.url, `${BASE}/search?q=%F0%9F%98%80`);
});
