/**
 * A model step with 300 calls of an agent's GET: a step runs at most
 * `toolCalls.perStep` of them, a turn at most `toolCalls.perTurn`, at most
 * `toolCalls.concurrency` at a time; every other call is refused with a tool
 * error the model reads, so every call has its result and the chat goes on.
 */
import assert from "node:assert/strict";
import type { UIMessageChunk } from "ai";
import { buildOperations } from "@/lib/agents/spec.ts";
import type { AgentConfig } from "@/lib/agents/types.ts";
import { createScriptedModel, scriptedRegistry } from "@/lib/models/testing.ts";
import { readyAgents } from "@/lib/tools/load_agents.ts";
import { CookieJar, newChatId, testConfig } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";
import { ask, SPY_SPEC } from "../support/agent_app.ts";

/** A loopback API that counts the requests it receives and the most it held at once. */
function countingApi(concurrency: number) {
  const stats = { requests: 0, inFlight: 0, peak: 0 };
  let held: Array<() => void> = [];
  let settling = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    stats.requests++;
    stats.peak = Math.max(stats.peak, ++stats.inFlight);
    // Requests are held until as many are in flight as the bound allows, and a moment more
    // (any request beyond the bound would arrive then), then answered together: a missing
    // bound shows as a higher peak. The 2 s timer only frees a batch that never fills (none
    // does under the bound); no assertion depends on either delay.
    const released = new Promise<void>((resolve) => held.push(resolve));
    if (stats.inFlight >= concurrency && !settling) {
      settling = true;
      setTimeout(() => {
        for (const release of held) release();
        held = [];
        settling = false;
      }, 25);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([released, new Promise((r) => timer = setTimeout(r, 2_000))]);
    clearTimeout(timer);
    stats.inFlight--;
    return Response.json({ info: "Aberto das 9h às 18h." });
  });
  return { stats, server, url: `http://127.0.0.1:${server.addr.port}` };
}

const CALLS = 300;
const manyReads = {
  type: "tool-calls" as const,
  calls: Array.from({ length: CALLS }, () => ({ toolName: "getInfo", input: {} })),
};

Deno.test("agents: 300 GET calls in one step run 8 a step, 24 a turn, 4 at a time; each gets a result", async () => {
  const api = countingApi(4);
  const model = createScriptedModel([manyReads, manyReads, manyReads, manyReads, {
    type: "text",
    text: "Pronto.",
  }]);
  const agent: AgentConfig = {
    id: "spy",
    name: "Spy API",
    description: "Counts requests.",
    spec: "inline",
    baseUrl: api.url,
    runIn: "server",
    local: true,
  };
  const agents = readyAgents([{ agent, operations: await buildOperations(agent, SPY_SPEC) }], {});
  const server = await startTestServer({
    config: testConfig({
      maxSteps: 6,
      toolCalls: { perStep: 8, perTurn: 24, concurrency: 4 },
    }),
    services: { agents, models: scriptedRegistry(model) },
  });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const { chunks } = await ask(server.url, jar, id, "Quais são os horários?");
    assert.equal(chunks.at(-1)?.type, "finish", "the turn ends normally");
    assert.equal(api.stats.requests, 24, "8 a step for three steps, then the turn's bound");
    assert.equal(api.stats.peak, 4, "at most 4 at a time");

    // Every call of the model has exactly one result in the stream.
    const ids = idsOf(chunks, "tool-input-available", "getInfo");
    assert.equal(ids.length, 4 * CALLS);
    const answered = chunks.filter((c) =>
      (c.type === "tool-output-available" || c.type === "tool-output-error") &&
      ids.includes(c.toolCallId)
    );
    assert.equal(answered.length, 4 * CALLS);
    assert.equal(
      new Set(answered.map((c) => (c as { toolCallId: string }).toolCallId)).size,
      4 * CALLS,
    );

    // The model reads why: the step's bound in steps 1 to 3, the turn's in step 4.
    const results = (call: number) => toolResults(model.calls[call]?.prompt);
    const first = results(1);
    assert.equal(first.length, CALLS);
    assert.equal(first.filter((r) => r.output.type === "json").length, 8);
    assert.match(JSON.stringify(first.at(-1)), /at most 8 tool calls/);
    const fourth = results(4);
    assert.equal(fourth.filter((r) => r.output.type === "json").length, 0);
    assert.match(JSON.stringify(fourth[0]), /at most 24 tool calls/);

    // The saved chat is valid: the next turn answers.
    const next = await ask(server.url, jar, id, "Obrigado");
    assert.equal(next.chunks.at(-1)?.type, "finish");
  } finally {
    await server.close();
    await api.server.shutdown();
  }
});

function idsOf(chunks: UIMessageChunk[], type: "tool-input-available", toolName: string) {
  return chunks.flatMap((c) => c.type === type && c.toolName === toolName ? [c.toolCallId] : []);
}

/** The tool results of the last tool message of a prompt. */
function toolResults(prompt: unknown): Array<{ output: { type: string } }> {
  const messages = (prompt ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.findLast((m) => m.role === "tool");
  return (last?.content ?? []) as Array<{ output: { type: string } }>;
}
