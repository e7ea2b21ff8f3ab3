/**
 * OpenTelemetry through Deno's built-in support: the server process runs with
 * OTEL_DENO=true and exports OTLP/HTTP JSON to a loopback receiver; one chat turn of the
 * offline model (the turn's search_site call, then the answer) must yield the spans of its phases,
 * inside the request's server span, with no message text in anything exported.
 */
import assert from "node:assert/strict";
import { TURN_SPANS } from "@/lib/telemetry/spans.ts";
import { spawnAppProcess } from "../support/app_process.ts";
import { CookieJar, newChatId, postChat, readSse, userMessage } from "../support/chat_client.ts";
import { tempKvPath } from "../support/temp.ts";

const QUESTION = "Como funciona o streaming? SENTINEL-OTEL-Q";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

Deno.test("otel: a chat turn exports the spans of its phases over OTLP", async () => {
  const bodies: string[] = [];
  const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    bodies.push(`${new URL(req.url).pathname} ${await req.text()}`);
    return Response.json({});
  });
  const kvPath = tempKvPath();
  const app = await spawnAppProcess(kvPath, {
    OTEL_DENO: "true",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.addr.port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: "site-assistant-test",
    OTEL_BSP_SCHEDULE_DELAY: "200",
  });
  try {
    const res = await postChat(app.url, {
      id: newChatId(),
      model: "local",
      message: userMessage(QUESTION),
    }, { jar: new CookieJar() });
    assert.equal(res.status, 200);
    const sse = await readSse(res);
    assert.ok(sse.chunks.some((c) => c.type === "tool-output-available"), "search_site ran");

    // Deno exports in batches: wait until the turn's last span (the answer's save) is in.
    const spans = await waitFor(() => {
      const all = bodies.filter((b) => b.startsWith("/v1/traces ")).flatMap((b) =>
        collectSpans(JSON.parse(b.slice("/v1/traces ".length)))
      );
      const saves = all.filter((s) => s.name === TURN_SPANS.save).length;
      return saves >= 2 ? all : null;
    });
    const names = spans.map((s) => s.name);
    for (const name of Object.values(TURN_SPANS)) {
      assert.ok(names.includes(name), `span "${name}" exported; got ${names.join(", ")}`);
    }
    // One model call: the turn ran the search before it (retrieval "prefetch", the default).
    assert.equal(names.filter((n) => n === TURN_SPANS.modelCall).length, 1, "one model call");
    const tool = spans.find((s) => s.name === TURN_SPANS.tool)!;
    assert.equal(attribute(tool, "gen_ai.tool.name"), "search_site");
    const model = spans.find((s) => s.name === TURN_SPANS.modelCall)!;
    assert.equal(attribute(model, "gen_ai.request.model"), "local");

    // Deno's own server span is the root: every phase is in its trace.
    const limits = spans.find((s) => s.name === TURN_SPANS.limits)!;
    const server = spans.find((s) => s.spanId === limits.parentSpanId);
    assert.ok(server, "chat.limits has the request's server span as parent");
    for (const name of Object.values(TURN_SPANS)) {
      assert.ok(
        spans.filter((s) => s.name === name).every((s) => s.traceId === limits.traceId),
        `"${name}" is in the request's trace`,
      );
    }
    assert.ok(
      !bodies.some((b) => b.includes("SENTINEL-OTEL")),
      "no message text in spans or logs",
    );
  } finally {
    await app.kill();
    await receiver.shutdown();
  }
});

/** The spans of an OTLP/JSON traces export. */
function collectSpans(body: {
  resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}): OtlpSpan[] {
  return (body.resourceSpans ?? []).flatMap((r) =>
    (r.scopeSpans ?? []).flatMap((s) => s.spans ?? [])
  );
}

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value && Object.values(value)[0];
}

/** Polls `probe` until it returns a value (Deno exports spans in the background). */
async function waitFor<T>(probe: () => T | null, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  while (true) {
    const value = probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error("The spans did not arrive.");
    await new Promise((r) => setTimeout(r, 50));
  }
}
