import assert from "node:assert/strict";
import {
  addressRange,
  type AgentCallResult,
  executeAgentRequest,
  type ResolveDns,
} from "./fetch_policy.ts";
import type { AgentRequest } from "./request.ts";

/** A loopback server that records the paths it was asked for. */
interface Loopback {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

function serve(handler: (request: Request) => Response | Promise<Response>): Loopback {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    hits.push(`${request.method} ${url.pathname}${url.search}`);
    return handler(request);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => server.shutdown() };
}

async function withServer(
  handler: (request: Request) => Response | Promise<Response>,
  fn: (server: Loopback) => Promise<void>,
): Promise<void> {
  const server = serve(handler);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

function get(url: string): AgentRequest {
  return { method: "GET", url, headers: {} };
}

function agent(baseUrl: string, local = false) {
  return { id: "test", baseUrl, local };
}

function errorOf(result: AgentCallResult) {
  assert.ok("error" in result, `expected an error, got ${JSON.stringify(result)}`);
  return result.error;
}

function dataOf(result: AgentCallResult) {
  assert.ok("data" in result, `expected data, got ${JSON.stringify(result)}`);
  return result.data;
}

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

Deno.test("a JSON answer is parsed, a text answer kept as text", async () => {
  await withServer((request) => {
    return new URL(request.url).pathname === "/json" ? json({ ok: 1 }) : new Response("plain");
  }, async (server) => {
    const options = { agent: agent(server.url, true) };
    assert.deepEqual(await executeAgentRequest(get(`${server.url}/json`), options), {
      data: { ok: 1 },
      status: 200,
    });
    assert.equal(dataOf(await executeAgentRequest(get(`${server.url}/text`), options)), "plain");
  });
});

Deno.test("loopback is refused for a non-local agent and allowed for a local one", async () => {
  await withServer(() => json({ ok: true }), async (server) => {
    const refused = await executeAgentRequest(get(`${server.url}/x`), { agent: agent(server.url) });
    const error = errorOf(refused);
    assert.equal(error.code, "blocked");
    assert.match(error.message, /127\.0\.0\.1 \(loopback\).*local: true/);
    assert.deepEqual(server.hits, []);
    const allowed = await executeAgentRequest(get(`${server.url}/x`), {
      agent: agent(server.url, true),
    });
    assert.deepEqual(dataOf(allowed), { ok: true });
    assert.deepEqual(server.hits, ["GET /x"]);
  });
});

Deno.test("a request for another origin than the agent's is refused before sending", async () => {
  await withServer(() => json({}), async (server) => {
    const error = errorOf(
      await executeAgentRequest(get(`${server.url}/x`), {
        agent: agent("http://127.0.0.1:1", true),
      }),
    );
    assert.equal(error.code, "blocked");
    assert.deepEqual(server.hits, []);
  });
});

Deno.test("a same-origin redirect is followed; 303 turns a POST into a bodiless GET", async () => {
  const bodies: string[] = [];
  await withServer(async (request) => {
    const path = new URL(request.url).pathname;
    bodies.push(await request.text());
    if (path === "/start") {
      return new Response(null, { status: 302, headers: { location: "/next" } });
    }
    if (path === "/post") {
      return new Response(null, { status: 303, headers: { location: "/done" } });
    }
    if (path === "/keep") {
      return new Response(null, { status: 307, headers: { location: "/done" } });
    }
    return json({ method: request.method, type: request.headers.get("content-type") });
  }, async (server) => {
    const options = { agent: agent(server.url, true) };
    assert.deepEqual(dataOf(await executeAgentRequest(get(`${server.url}/start`), options)), {
      method: "GET",
      type: null,
    });
    const post = (path: string): AgentRequest => ({
      method: "POST",
      url: `${server.url}${path}`,
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    assert.deepEqual(dataOf(await executeAgentRequest(post("/post"), options)), {
      method: "GET",
      type: null,
    });
    assert.deepEqual(dataOf(await executeAgentRequest(post("/keep"), options)), {
      method: "POST",
      type: "application/json",
    });
    assert.deepEqual(server.hits, [
      "GET /start",
      "GET /next",
      "POST /post",
      "GET /done",
      "POST /keep",
      "POST /done",
    ]);
    assert.deepEqual(bodies, ["", "", '{"a":1}', "", '{"a":1}', '{"a":1}']);
  });
});

Deno.test("an off-host redirect is refused and the other host receives nothing", async () => {
  await withServer(() => json({ stolen: true }), async (spy) => {
    await withServer(
      () => new Response(null, { status: 302, headers: { location: `${spy.url}/collect` } }),
      async (server) => {
        const result = await executeAgentRequest(get(`${server.url}/go`), {
          agent: agent(server.url, true),
        });
        const error = errorOf(result);
        assert.equal(error.code, "redirect");
        assert.ok(error.message.includes(spy.url), error.message);
        assert.deepEqual(server.hits, ["GET /go"]);
        assert.deepEqual(spy.hits, []);
      },
    );
  });
});

Deno.test("more than 3 redirects are refused", async () => {
  await withServer((request) => {
    const n = Number(new URL(request.url).searchParams.get("n") ?? 0);
    return new Response(null, { status: 301, headers: { location: `/loop?n=${n + 1}` } });
  }, async (server) => {
    const error = errorOf(
      await executeAgentRequest(get(`${server.url}/loop`), { agent: agent(server.url, true) }),
    );
    assert.equal(error.code, "redirect");
    assert.equal(server.hits.length, 4);
  });
});

/** A fetch that must never be called: the policy refuses before connecting. */
function forbiddenFetch(calls: string[]): typeof fetch {
  return (input) => {
    calls.push(String(input));
    return Promise.resolve(json({ reached: true }));
  };
}

function dns(addresses: Record<"A" | "AAAA", string[]>): ResolveDns {
  return (_host, type) => Promise.resolve(addresses[type]);
}

Deno.test("a name that resolves to a private address is refused", async () => {
  const blocked: [string, Record<"A" | "AAAA", string[]>][] = [
    ["10.0.0.1", { A: ["10.0.0.1"], AAAA: [] }],
    ["127.0.0.1", { A: ["127.0.0.1"], AAAA: [] }],
    ["::1", { A: [], AAAA: ["::1"] }],
    ["fe80::1", { A: [], AAAA: ["fe80::1"] }],
    ["::ffff:127.0.0.1", { A: [], AAAA: ["::ffff:127.0.0.1"] }],
    ["::ffff:a00:1", { A: [], AAAA: ["::ffff:a00:1"] }],
    ["fd00::1", { A: [], AAAA: ["fd00::1"] }],
    ["100.64.0.1", { A: ["100.64.0.1"], AAAA: [] }],
    ["169.254.169.254", { A: ["169.254.169.254"], AAAA: [] }],
    ["192.168.1.1", { A: ["192.168.1.1"], AAAA: [] }],
    ["0.0.0.0", { A: ["0.0.0.0"], AAAA: [] }],
    ["224.0.0.1", { A: ["224.0.0.1"], AAAA: [] }],
    ["10.0.0.1", { A: ["93.184.216.34", "10.0.0.1"], AAAA: [] }],
    ["::", { A: ["93.184.216.34"], AAAA: ["::"] }],
  ];
  const calls: string[] = [];
  for (const [address, answers] of blocked) {
    const error = errorOf(
      await executeAgentRequest(get("https://api.example.test/x"), {
        agent: agent("https://api.example.test"),
        resolveDns: dns(answers),
        fetch: forbiddenFetch(calls),
      }),
    );
    assert.equal(error.code, "blocked");
    assert.ok(error.message.includes(address), error.message);
  }
  assert.deepEqual(calls, []);
});

Deno.test("a name with only public addresses passes; a name that does not resolve fails", async () => {
  const calls: string[] = [];
  const ok = await executeAgentRequest(get("https://api.example.test/x"), {
    agent: agent("https://api.example.test"),
    resolveDns: dns({ A: ["93.184.216.34"], AAAA: ["2606:2800:220:1::248"] }),
    fetch: forbiddenFetch(calls),
  });
  assert.deepEqual(dataOf(ok), { reached: true });
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const mapped = await executeAgentRequest(get("https://api.example.test/y"), {
    agent: agent("https://api.example.test"),
    resolveDns: dns({ A: [], AAAA: ["::ffff:93.184.216.34"] }),
    fetch: forbiddenFetch(calls),
  });
  assert.deepEqual(dataOf(mapped), { reached: true });
  const none = await executeAgentRequest(get("https://nowhere.example.test/x"), {
    agent: agent("https://nowhere.example.test"),
    resolveDns: () => Promise.reject(new Deno.errors.NotFound("no record")),
    fetch: forbiddenFetch(calls),
  });
  assert.equal(errorOf(none).code, "network");
  assert.deepEqual(calls, ["https://api.example.test/x", "https://api.example.test/y"]);
});

Deno.test("IP literals and loopback names are checked without DNS", async () => {
  const calls: string[] = [];
  const lookups: string[] = [];
  for (const base of ["https://[::1]", "https://10.0.0.1", "http://0x7f.1", "https://localhost"]) {
    const url = new URL("/x", base).href;
    const error = errorOf(
      await executeAgentRequest(get(url), {
        agent: agent(base),
        resolveDns: (host) => {
          lookups.push(host);
          return Promise.resolve(["93.184.216.34"]);
        },
        fetch: forbiddenFetch(calls),
      }),
    );
    assert.equal(error.code, "blocked", base);
  }
  assert.deepEqual(calls, []);
  assert.deepEqual(lookups, []);
});

Deno.test("a server that never answers times out", async () => {
  let release!: () => void;
  const never = new Promise<void>((resolve) => release = resolve);
  await withServer(async () => {
    await never;
    return new Response("late");
  }, async (server) => {
    try {
      const started = Date.now();
      const error = errorOf(
        await executeAgentRequest(get(`${server.url}/slow`), {
          agent: agent(server.url, true),
          timeoutMs: 200,
        }),
      );
      assert.equal(error.code, "timeout");
      assert.match(error.message, /200 ms/);
      assert.ok(Date.now() - started < 5_000, "does not hang");
    } finally {
      release();
    }
  });
});

Deno.test("a body that stalls after the headers times out too", async () => {
  let release!: () => void;
  const never = new Promise<void>((resolve) => release = resolve);
  await withServer(() => {
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"partial":'));
        await never;
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "application/json" } });
  }, async (server) => {
    try {
      const error = errorOf(
        await executeAgentRequest(get(`${server.url}/stall`), {
          agent: agent(server.url, true),
          timeoutMs: 200,
        }),
      );
      assert.equal(error.code, "timeout");
    } finally {
      release();
    }
  });
});

/** A server streaming 16 KiB chunks of `byte` for up to 64 MiB, counting what it sent. */
function endless(contentType: string, byte = "x") {
  const sent = { bytes: 0 };
  const chunk = new TextEncoder().encode(byte.repeat(16 * 1024));
  const handler = () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent.bytes >= 64 * 1024 * 1024) return controller.close();
        sent.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    // A lying Content-Length would be ignored as well: only counted bytes matter.
    return new Response(body, { headers: { "content-type": contentType } });
  };
  return { sent, handler };
}

Deno.test("an oversized JSON answer is cut off while streaming and refused", async () => {
  const { sent, handler } = endless("application/json");
  await withServer(handler, async (server) => {
    const error = errorOf(
      await executeAgentRequest(get(`${server.url}/big`), {
        agent: agent(server.url, true),
        maxResponseBytes: 64 * 1024,
      }),
    );
    assert.equal(error.code, "too_large");
    assert.equal(error.status, 200);
    assert.match(error.message, /65536 bytes/);
  });
  assert.ok(sent.bytes < 64 * 1024 * 1024, `the stream was cancelled (${sent.bytes} bytes sent)`);
});

Deno.test("an oversized text answer is truncated to the cap", async () => {
  const { handler } = endless("text/plain");
  await withServer(handler, async (server) => {
    const data = dataOf(
      await executeAgentRequest(get(`${server.url}/big`), {
        agent: agent(server.url, true),
        maxResponseBytes: 1000,
      }),
    );
    assert.equal(typeof data, "string");
    assert.equal(data, `${"x".repeat(1000)}\n[truncated at 1000 bytes]`);
  });
});

Deno.test("a non-2xx answer is an error with the server's message, never data", async () => {
  await withServer((request) => {
    switch (new URL(request.url).pathname) {
      case "/message":
        return json({ message: "Email is invalid" }, 422);
      case "/error":
        return json({ error: "Not allowed" }, 403);
      case "/nested":
        return json({ error: { message: "Quota exceeded" } }, 429);
      case "/long":
        return new Response("e".repeat(1000), { status: 500 });
      default:
        return new Response(null, { status: 404, statusText: "Not Found" });
    }
  }, async (server) => {
    const call = async (path: string) =>
      errorOf(
        await executeAgentRequest(get(`${server.url}${path}`), { agent: agent(server.url, true) }),
      );
    assert.deepEqual(await call("/message"), {
      status: 422,
      code: "http",
      message: "Email is invalid",
    });
    assert.equal((await call("/error")).message, "Not allowed");
    assert.equal((await call("/nested")).message, "Quota exceeded");
    const long = await call("/long");
    assert.equal(long.status, 500);
    assert.equal(long.message, `${"e".repeat(300)}…`);
    assert.deepEqual(await call("/missing"), { status: 404, code: "http", message: "Not Found" });
  });
});

Deno.test("a redirect that leaves the base path loses the credentials, for every later hop too", async () => {
  const seen: Record<string, Record<string, string | null>> = {};
  const names = ["authorization", "cookie", "proxy-authorization", "x-api-token", "x-tenant"];
  await withServer((request) => {
    const { pathname } = new URL(request.url);
    seen[pathname] = Object.fromEntries(names.map((n) => [n, request.headers.get(n)]));
    const next: Record<string, string> = {
      "/v1/start": "/v1/inside",
      "/v1/inside": "/v1x/lookalike",
      "/v1x/lookalike": "/v1/back",
      "/v1/other": "../admin/collect",
    };
    return next[pathname]
      ? new Response(null, { status: 302, headers: { location: next[pathname] } })
      : json({ ok: true });
  }, async (server) => {
    const headers = {
      Authorization: "Bearer secret",
      Cookie: "session=secret",
      "Proxy-Authorization": "Basic secret",
      "X-Api-Token": "configured-secret",
      "X-Tenant": "acme",
    };
    const options = {
      agent: agent(`${server.url}/v1`, true),
      secretHeaders: ["x-API-token"],
    };
    const send = (path: string) =>
      executeAgentRequest({ method: "GET", url: `${server.url}${path}`, headers }, options);
    dataOf(await send("/v1/start"));
    const all = Object.fromEntries(names.map((n) => [n, null]));
    const kept = {
      ...all,
      ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    };
    const dropped = { ...all, "x-tenant": "acme" };
    assert.deepEqual(seen["/v1/start"], kept);
    assert.deepEqual(seen["/v1/inside"], kept, "a redirect under the base path keeps them");
    assert.deepEqual(seen["/v1x/lookalike"], dropped, "a path that only starts like the base");
    assert.deepEqual(seen["/v1/back"], dropped, "once dropped, they stay dropped");
    dataOf(await send("/v1/other"));
    assert.deepEqual(seen["/admin/collect"], dropped, "a dot-segment Location out of the base");
  });
});

Deno.test("IPv4-mapped and IPv4-compatible IPv6 forms are judged by the IPv4 address they carry", () => {
  const ranges: Array<[string, string]> = [
    ["::ffff:127.0.0.1", "ipv4Mapped loopback"],
    ["::ffff:7f00:1", "ipv4Mapped loopback"],
    ["::ffff:a00:1", "ipv4Mapped private"],
    ["::ffff:c0a8:101", "ipv4Mapped private"],
    ["::ffff:a9fe:a9fe", "ipv4Mapped linkLocal"],
    ["::7f00:1", "ipv4Compatible loopback"],
    ["0:0:0:0:0:0:7f00:1", "ipv4Compatible loopback"],
    ["::7f12:3456", "ipv4Compatible loopback"],
    ["::a00:1", "ipv4Compatible private"],
    ["::ac10:1", "ipv4Compatible private"],
    ["::c0a8:101", "ipv4Compatible private"],
    ["::6440:1", "ipv4Compatible carrierGradeNat"],
    ["::a9fe:a9fe", "ipv4Compatible linkLocal"],
    // Deprecated (RFC 4291) and used by no public API: never public, whatever it carries.
    ["::5db8:d822", "ipv4Compatible"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["::ffff:5db8:d822", "unicast"],
    ["2606:2800:220:1::248", "unicast"],
  ];
  for (const [address, range] of ranges) assert.equal(addressRange(address), range, address);
  // Other translation prefixes are not unwrapped, and not public either.
  for (const address of ["::ffff:0:7f00:1", "64:ff9b::7f00:1", "2002:7f00:1::"]) {
    assert.notEqual(addressRange(address), "unicast", address);
  }
});

Deno.test("an IPv4-compatible loopback or private address is refused, as a literal or from DNS", async () => {
  const calls: string[] = [];
  for (const host of ["[::7f00:1]", "[::127.0.0.1]", "[0:0:0:0:0:0:a00:1]", "[::ffff:7f00:1]"]) {
    const url = `https://${host}/x`;
    const error = errorOf(
      await executeAgentRequest(get(url), {
        agent: agent(`https://${host}`),
        fetch: forbiddenFetch(calls),
      }),
    );
    assert.equal(error.code, "blocked", host);
    assert.match(error.message, /loopback|private/, host);
  }
  for (const aaaa of ["::7f00:1", "::a00:1", "::ffff:7f00:1"]) {
    const error = errorOf(
      await executeAgentRequest(get("https://api.example.test/x"), {
        agent: agent("https://api.example.test"),
        resolveDns: dns({ A: [], AAAA: [aaaa] }),
        fetch: forbiddenFetch(calls),
      }),
    );
    assert.equal(error.code, "blocked", aaaa);
  }
  assert.deepEqual(calls, []);
});
