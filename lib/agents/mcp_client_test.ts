import assert from "node:assert/strict";
import { startRemoteMcp } from "@/tests/support/remote_mcp.ts";
import { callMcpTool, listMcpTools, toolOutput } from "./mcp_client.ts";

/** A loopback server that records every request and answers with `answer`. */
function recorder(answer: (req: Request) => Response) {
  const seen: Array<{ path: string; headers: Headers }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push({ path: new URL(req.url).pathname, headers: req.headers });
    return answer(req);
  });
  return { seen, origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("mcp client: lists and calls a real server; an isError result is an error", async () => {
  const remote = startRemoteMcp();
  try {
    const agent = { id: "m", baseUrl: remote.url, local: true };
    const listed = await listMcpTools({ agent });
    assert.ok("tools" in listed);
    const hours = listed.tools.find((t) => t.name === "opening_hours")!;
    assert.equal(hours.readOnly, true);
    assert.equal(listed.tools.find((t) => t.name === "book_visit")!.readOnly, false);
    assert.deepEqual(await callMcpTool({ agent }, "broken", {}), {
      error: { status: 0, message: "The archive is offline." },
    });
  } finally {
    await remote.close();
  }
});

Deno.test("mcp client: a redirect to another origin is refused and never contacted", async () => {
  const other = recorder(() => new Response("{}", { status: 500 }));
  const first = recorder(() =>
    new Response(null, { status: 307, headers: { location: `${other.origin}/mcp` } })
  );
  try {
    const result = await listMcpTools({
      agent: { id: "m", baseUrl: `${first.origin}/mcp`, local: true },
    });
    assert.ok("error" in result);
    assert.match(result.error.message, /Refused a redirect to "http:\/\/127\.0\.0\.1:\d+"/);
    assert.equal(other.seen.length, 0);
  } finally {
    await first.close();
    await other.close();
  }
});

Deno.test("mcp client: a redirect out of the endpoint's path drops the agent's credentials", async () => {
  const server = recorder((req) =>
    new URL(req.url).pathname === "/mcp"
      ? new Response(null, { status: 307, headers: { location: "/elsewhere" } })
      : new Response("no", { status: 500 })
  );
  try {
    const result = await listMcpTools({
      agent: { id: "m", baseUrl: `${server.origin}/mcp`, local: true },
      secretHeaders: ["X-Key"],
      headers: { "X-Key": "k-secret", Authorization: "Bearer t" },
    });
    assert.ok("error" in result);
    const [first, second] = server.seen;
    assert.equal(first.headers.get("x-key"), "k-secret");
    assert.equal(second.path, "/elsewhere");
    assert.equal(second.headers.get("x-key"), null);
    assert.equal(second.headers.get("authorization"), null);
  } finally {
    await server.close();
  }
});

Deno.test("mcp client: an answer over the byte cap fails; a server that hangs fails at the deadline", async () => {
  const remote = startRemoteMcp();
  // An event stream that never sends an event: the connection is open, the answer never comes.
  const hang = recorder(() =>
    new Response(new ReadableStream({ start() {} }), {
      headers: { "content-type": "text/event-stream" },
    })
  );
  try {
    const big = await listMcpTools({
      agent: { id: "m", baseUrl: remote.url, local: true },
      maxResponseBytes: 300,
    });
    assert.ok("error" in big);
    assert.match(big.error.message, /larger than 300 bytes/);
    const slow = await listMcpTools({
      agent: { id: "m", baseUrl: `${hang.origin}/mcp`, local: true },
      timeoutMs: 200,
    });
    assert.deepEqual(slow, {
      error: { status: 0, message: "The MCP server did not answer within 200 ms." },
    });
  } finally {
    await remote.close();
    await hang.close();
  }
});

Deno.test("mcp client: a result's text is cut for the model; other blocks are named", () => {
  const out = toolOutput({
    content: [{ type: "text", text: "a".repeat(40_000) }, {
      type: "image",
      data: "",
      mimeType: "image/png",
    }],
  });
  assert.ok("data" in out);
  const text = out.data as string;
  assert.ok(text.length < 33_000);
  assert.match(text, /\[truncated at 32768 characters\]$/);
  assert.deepEqual(toolOutput({ content: [], structuredContent: { n: 1 } }), { data: { n: 1 } });
});
