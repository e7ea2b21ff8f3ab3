import assert from "node:assert/strict";
import { errorName, noteRequest, withRequestLog } from "./request_log.ts";
import type { ServerErrorEntry } from "@/lib/telemetry/server_error.ts";
import { sseWriter } from "@/lib/chat/sse.ts";

function collect() {
  const lines: Record<string, unknown>[] = [];
  const errors: ServerErrorEntry[] = [];
  return {
    lines,
    errors,
    options: {
      write: (line: string) => lines.push(JSON.parse(line)),
      onServerError: (e: ServerErrorEntry) => errors.push(e),
    },
  };
}

Deno.test("request log: the line is written when the body ends, with the handler's facts", async () => {
  const log = collect();
  const app = withRequestLog((req) => {
    noteRequest(req, { route: "/api/x/:id" });
    return Promise.resolve(new Response("hello"));
  }, log.options);
  const res = await app(new Request("http://localhost/api/x/1?token=SECRET"));
  assert.equal(log.lines.length, 0, "not before the body was read");
  assert.equal(await res.text(), "hello");
  assert.equal(log.lines.length, 1);
  const [line] = log.lines;
  assert.equal(line.route, "/api/x/:id");
  assert.equal(line.status, 200);
  assert.equal(line.end, "complete");
  assert.equal(line.requestId, res.headers.get("x-request-id"));
  assert.ok(!JSON.stringify(line).includes("SECRET"), "no query string");
});

Deno.test("request log: a cancelled body is logged once, as cancelled", async () => {
  const log = collect();
  const app = withRequestLog(
    () =>
      Promise.resolve(
        new Response(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(1)) })),
      ),
    log.options,
  );
  const res = await app(new Request("http://localhost/"));
  const reader = res.body!.getReader();
  await reader.read();
  await reader.cancel();
  assert.deepEqual(log.lines.map((l) => l.end), ["cancelled"]);
});

Deno.test("request log: a streamed answer's body is passed on as is and logged when it ends", async () => {
  for (const how of ["complete", "cancelled"] as const) {
    const log = collect();
    const sse = sseWriter();
    const app = withRequestLog(() => Promise.resolve(new Response(sse.body)), log.options);
    const res = await app(new Request("http://localhost/api/chat"));
    assert.equal(res.body, sse.body, "no stream layer between the writer and the socket");
    sse.send({ type: "start" });
    const reader = res.body!.getReader();
    await reader.read();
    assert.equal(log.lines.length, 0);
    if (how === "complete") sse.close();
    else await reader.cancel();
    sse.close();
    assert.deepEqual(log.lines.map((l) => l.end), [how]);
  }
});

Deno.test("request log: a thrown error is logged by name, never by message", async () => {
  const log = collect();
  const app = withRequestLog(() => {
    throw new TypeError("visitor typed SENTINEL-MESSAGE");
  }, log.options);
  await assert.rejects(() => app(new Request("http://localhost/")), TypeError);
  assert.equal(log.lines.length, 1);
  assert.equal(log.lines[0].status, 500);
  assert.equal(log.lines[0].error, "TypeError");
  assert.equal(log.errors.length, 1);
  assert.equal(log.errors[0].error, "TypeError");
  assert.ok(!JSON.stringify([log.lines, log.errors]).includes("SENTINEL"));
});

Deno.test("request log: a failed chat turn with status 200 is a server error", async () => {
  const log = collect();
  const app = withRequestLog((req) => {
    noteRequest(req, { chat: { model: "local", outcome: "failed" } });
    return Promise.resolve(new Response(null, { status: 200 }));
  }, log.options);
  await app(new Request("http://localhost/api/chat", { method: "POST" }));
  assert.equal(log.errors.length, 1);
  assert.equal(log.errors[0].status, 200);
});

Deno.test("errorName: class and a safe code only", () => {
  const coded = Object.assign(new Error("x"), { code: "ECONNREFUSED" });
  assert.equal(errorName(coded), "Error(ECONNREFUSED)");
  const status = Object.assign(new Error("x"), { name: "APICallError", statusCode: 502 });
  assert.equal(errorName(status), "APICallError(502)");
  const hostile = Object.assign(new Error("x"), { code: "a message with spaces" });
  assert.equal(errorName(hostile), "Error");
  assert.equal(errorName("just a string"), "string");
});
