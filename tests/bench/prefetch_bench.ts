/**
 * What retrieval before the first model call saves a visitor: time to the first text
 * token of the same question with `retrieval: "prefetch"` and `retrieval: "tool"`,
 * against the floor of one provider call, in the same run.
 *
 * The provider is a loopback stand-in (tests/support/replay_server.ts) speaking Chat
 * Completions: every call waits a fixed 400 ms before its first byte; a call whose prompt
 * holds no tool result asks for `search_site` (a tool-call stream shaped like the
 * recorded tests/fixtures/providers/xai-tool-call.chunks.txt), any other answers with the
 * recorded openai-text.chunks.txt. So tool mode pays two calls before the first word,
 * prefetch one. The floor is a bare fetch of the stand-in, to its first body byte.
 * Floor, prefetch and tool turns are interleaved per round, so drift hits all alike.
 */
import type { AppConfig } from "@/lib/config.ts";
import { testConfig } from "../support/chat_client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { openaiReplayEnv } from "../support/ui.ts";
import { citationReport } from "./prefetch_citations.ts";
import {
  type RecordedRequest,
  type ReplayStep,
  startReplayServer,
} from "../support/replay_server.ts";

/** The stand-in's fixed wait before the first byte of every call. */
export const PROVIDER_FIRST_BYTE_MS = 400;
const QUESTION = "Quais dados vocês guardam e por quanto tempo?";
const ROUNDS = 20;
const WARMUP = 2;
/** Every how many FaQuAD questions the citation table asks (1: all 900, about a minute). */
const CITATION_EVERY = 3;

/** A Chat Completions stream that calls `search_site` with `query`. */
function toolCallStream(query: string): string[] {
  const head = {
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: 1,
    model: "bench",
  };
  const event = (body: unknown) => `data: ${JSON.stringify({ ...head, ...body as object })}\n\n`;
  const call = {
    index: 0,
    id: "call_bench",
    type: "function",
    function: { name: "search_site", arguments: JSON.stringify({ query }) },
  };
  return [
    event({ choices: [{ index: 0, delta: { role: "assistant", tool_calls: [call] } }] }),
    event({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }),
    event({ choices: [], usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 } }),
    "data: [DONE]\n\n",
  ];
}

/** The stand-in's answer to one call: a search request first, text once it has a result. */
function standIn(request: RecordedRequest): ReplayStep {
  const messages = (request.body as { messages?: Array<{ role: string }> } | undefined)?.messages;
  const searched = (messages ?? []).some((m) => m.role === "tool");
  return searched
    ? { fixture: "openai-text.chunks.txt", headersDelayMs: PROVIDER_FIRST_BYTE_MS }
    : { body: toolCallStream(QUESTION), headersDelayMs: PROVIDER_FIRST_BYTE_MS };
}

/** ms from the request to the first text delta of the answer; the stream is read to its end. */
async function ttft(server: TestServer, i: number): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${server.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: `bench-${i}-${crypto.randomUUID().slice(0, 8)}`,
      model: "openai/gpt-4.1-mini",
      message: { id: `u${i}`, role: "user", parts: [{ type: "text", text: QUESTION }] },
    }),
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let first = NaN;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(first) && value.includes('"text-delta"')) first = performance.now() - t0;
  }
  return first;
}

/** ms from a bare request to the stand-in to its first body byte: one provider call. */
async function floor(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: QUESTION }] }),
  });
  const reader = res.body!.getReader();
  await reader.read();
  const ms = performance.now() - t0;
  await reader.cancel();
  return ms;
}

function pct(values: number[], p: number): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The three series, interleaved per round; the first `WARMUP` rounds are dropped. */
export async function measure(rounds = ROUNDS): Promise<{
  floor: number[];
  prefetch: number[];
  tool: number[];
  providerCalls: { prefetch: number; tool: number };
  index: string;
}> {
  const replay = startReplayServer(standIn);
  const app = (retrieval: AppConfig["retrieval"]) =>
    startTestServer({ env: openaiReplayEnv(replay.url), config: testConfig({ retrieval }) });
  const prefetchApp = await app("prefetch");
  const toolApp = await app("tool");
  const series = { floor: [] as number[], prefetch: [] as number[], tool: [] as number[] };
  const calls = { prefetch: 0, tool: 0 };
  try {
    for (let r = 0; r < WARMUP + rounds; r++) {
      const keep = r >= WARMUP;
      const f = await floor(replay.url);
      let before = replay.requests.length;
      const p = await ttft(prefetchApp, r);
      if (keep) calls.prefetch += replay.requests.length - before;
      before = replay.requests.length;
      const t = await ttft(toolApp, r);
      if (keep) calls.tool += replay.requests.length - before;
      if (keep) {
        series.floor.push(f);
        series.prefetch.push(p);
        series.tool.push(t);
      }
    }
    await prefetchApp.services.search.ready?.();
    const status = prefetchApp.services.search.status();
    const index = status.status === "ok"
      ? `${status.passages} passages, ${status.mode}`
      : `unavailable (${status.error})`;
    return {
      ...series,
      providerCalls: { prefetch: calls.prefetch / rounds, tool: calls.tool / rounds },
      index,
    };
  } finally {
    await prefetchApp.close();
    await toolApp.close();
    await replay.close();
  }
}

/** The markdown section. */
export async function run(): Promise<string> {
  const m = await measure();
  const base = pct(m.floor, 50);
  const row = (name: string, values: number[], calls: number | string) =>
    `| ${name} | ${calls} | ${values.length} | ${pct(values, 50).toFixed(1)} / ${
      pct(values, 95).toFixed(1)
    } | ${(pct(values, 50) - base).toFixed(1)} |`;
  return [
    "## Retrieval before the first model call: time to the first word",
    "",
    `A loopback provider stand-in whose every call waits ${PROVIDER_FIRST_BYTE_MS} ms before its`,
    "first byte; in tool mode its first call asks for `search_site`. Time from POST /api/chat",
    'to the first text delta, same question, same app, `retrieval: "prefetch"` vs `"tool"`,',
    "against the floor of one provider call (a bare fetch of the stand-in to its first byte),",
    `interleaved per round (${WARMUP} warm-up rounds dropped). Site index: ${m.index}.`,
    "Source: tests/bench/prefetch_bench.ts. Goal: prefetch within 30 ms of the floor.",
    "",
    "| | provider calls per turn | turns | p50 / p95 (ms) | p50 over the floor (ms) |",
    "| --- | ---: | ---: | --- | ---: |",
    row("floor: one provider call", m.floor, 1),
    row("prefetch", m.prefetch, m.providerCalls.prefetch),
    row("tool", m.tool, m.providerCalls.tool),
    "",
    "Citation quality must not drop: the offline model and a scripted model (searches the",
    "question, cites the first passage) in both modes, through POST /api/chat with the FaQuAD",
    "paragraphs as the site (tests/bench/prefetch_citations.ts; `--every 1` asks all 900).",
    "",
    await citationReport(CITATION_EVERY),
  ].join("\n");
}

if (import.meta.main) console.log(await run());
