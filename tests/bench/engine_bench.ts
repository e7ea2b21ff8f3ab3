/**
 * Engine bench: CPU per chat turn of our chat engine (lib/chat/engine/) against
 * the AI SDK's own loop, both over the real OpenAI adapter reading the replay
 * server, in the same run.
 *
 *   deno run -A --v8-flags=--expose-gc tests/bench/engine_bench.ts
 *
 * The replay server (tests/bench/chat_bench_child.ts replay, "openai-text.chunks.txt",
 * 302 chunks) runs in its own process; every variant runs in this one, so the CPU
 * measured is the variant's plus the bench's own reading, which is the same for all:
 *
 * - adapter only: the provider's `doStream` read to the end. The floor: any engine
 *   pays for it.
 * - our engine: `runTurn` through the citation filter, the MessageBuilder (the
 *   saved answer) and the SSE writer, as POST /api/chat does; the body read to the end.
 * - SDK loop: `streamText(...).toUIMessageStreamResponse()` with `onFinish` building
 *   the saved answer (what the turn did before the engine); the body read to the end.
 *
 * Settings: 50 closed-loop clients with the replay paced at a chunk every 10 ms (a
 * fast provider; most of the chat bench's load), and one turn at a time at wire speed.
 * Two rounds (the second in reverse order); each variant's lower figure is kept.
 */
import process from "node:process";
import { createOpenAI } from "@ai-sdk/openai";
import { isStepCount, type ModelMessage, streamText, type UIMessage } from "ai";
import { MessageBuilder } from "@/lib/protocol/message_builder.ts";
import { citationFilter } from "@/lib/chat/citations.ts";
import { runTurn } from "@/lib/chat/engine/run_turn.ts";
import { createSearchTool } from "@/lib/tools/search_site.ts";
import { sseWriter } from "@/lib/chat/sse.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { listeningPort } from "../support/listening.ts";

const CHILD = new URL("./chat_bench_child.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;
const INSTRUCTIONS = "You answer questions about the site. Cite passages as [N].";
const MESSAGES: ModelMessage[] = [{ role: "user", content: "What is Harmony Day?" }];
const ORIGINAL: UIMessage[] = [{
  id: "u1",
  role: "user",
  parts: [{ type: "text", text: "What is Harmony Day?" }],
}];

/** The search tool is declared (the fixture never calls it): both loops prepare it per call. */
const noSearch: SiteSearch = {
  search: () => Promise.resolve({ mode: "lexical", passages: [] }),
} as unknown as SiteSearch;

async function drain(stream: ReadableStream<unknown>): Promise<void> {
  const reader = stream.getReader();
  while (!(await reader.read()).done) { /* count nothing: the same for every variant */ }
}

type Variant = (model: ReturnType<ReturnType<typeof createOpenAI>["chat"]>) => Promise<unknown>;

const VARIANTS: Array<[string, Variant]> = [
  ["adapter only (floor)", async (model) => {
    const { stream } = await model.doStream({
      prompt: [
        { role: "system", content: INSTRUCTIONS },
        { role: "user", content: [{ type: "text", text: "What is Harmony Day?" }] },
      ],
    });
    await drain(stream);
  }],
  ["our engine", async (model) => {
    const tools = {
      search_site: createSearchTool(noSearch, { origin: "http://x" }),
    };
    const answer = new MessageBuilder(undefined, "m1");
    const sse = sseWriter();
    const filter = citationFilter({ valid: 0, invalid: 0 });
    const deliver = (c: Parameters<typeof sse.send>[0]) => {
      if (c.type !== "error") answer.apply(c);
      sse.send(c);
    };
    const done = runTurn({
      model,
      instructions: INSTRUCTIONS,
      messages: MESSAGES,
      tools,
      maxSteps: 7,
      abortSignal: new AbortController().signal,
      messageId: "m1",
      errorText: () => "failed",
    }, (c) => filter(c, deliver)).then(() => sse.close());
    await Promise.all([drain(sse.body), done]);
    return answer.message;
  }],
  ["SDK loop (streamText)", async (model) => {
    const tools = {
      search_site: createSearchTool(noSearch, { origin: "http://x" }),
    };
    let saved: UIMessage | undefined;
    const result = streamText({
      model,
      instructions: INSTRUCTIONS,
      messages: MESSAGES,
      tools,
      stopWhen: isStepCount(7),
      maxRetries: 0,
      telemetry: { isEnabled: false },
    });
    const res = result.toUIMessageStreamResponse({
      originalMessages: ORIGINAL,
      sendSources: true,
      onError: () => "failed",
      onFinish: ({ responseMessage }) => {
        saved = responseMessage;
      },
    });
    await drain(res.body!);
    return saved;
  }],
];

interface Row {
  variant: string;
  paced: number;
  wire: number;
}

/** CPU ms per turn with `clients` closed-loop clients over `seconds` (after a ramp of `rampMs`). */
async function cpuPerTurn(
  clients: number,
  seconds: number,
  rampMs: number,
  one: () => Promise<unknown>,
): Promise<number> {
  let turns = 0;
  let counting = false;
  let stop = false;
  const loops = Array.from({ length: clients }, async (_, i) => {
    await new Promise((r) => setTimeout(r, (rampMs * i) / clients));
    while (!stop) {
      await one();
      if (counting) turns++;
    }
  });
  await new Promise((r) => setTimeout(r, rampMs));
  (globalThis as { gc?: () => void }).gc?.();
  const c0 = process.cpuUsage();
  counting = true;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const used = process.cpuUsage(c0);
  const counted = turns;
  counting = false;
  stop = true;
  await Promise.all(loops);
  return (used.user + used.system) / 1000 / counted;
}

/** Runs the bench; returns the markdown section. */
export async function run(): Promise<string> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, "replay", "openai-text.chunks.txt"],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const replayUrl = `http://127.0.0.1:${await listeningPort(proc.stdout)}`;
  const pace = async (ms: number) => {
    await (await fetch(`${replayUrl}/__pace?ms=${ms}`, { method: "POST" })).text();
  };
  const model = createOpenAI({ apiKey: "x", baseURL: `${replayUrl}/v1` }).chat("gpt-4.1-mini");
  const rows: Row[] = [];
  try {
    // Warm-up: JIT and the connection pool, every variant.
    for (const [, v] of VARIANTS) for (let i = 0; i < 20; i++) await v(model);
    // Two rounds, the second in reverse order, keeping each variant's lower figure: the
    // first variant measured would otherwise carry the machine's warm-up.
    const best = new Map<string, { paced: number; wire: number }>();
    for (const order of [VARIANTS, [...VARIANTS].reverse()]) {
      for (const [name, v] of order) {
        await pace(10);
        const paced = await cpuPerTurn(50, 8, 3_000, () => v(model));
        await pace(0);
        const wire = await cpuPerTurn(1, 4, 200, () => v(model));
        console.error(`${name}: ${paced.toFixed(1)} ms paced, ${wire.toFixed(1)} ms wire speed`);
        const prev = best.get(name);
        best.set(name, {
          paced: Math.min(paced, prev?.paced ?? Infinity),
          wire: Math.min(wire, prev?.wire ?? Infinity),
        });
      }
    }
    for (const [name] of VARIANTS) rows.push({ variant: name, ...best.get(name)! });
  } finally {
    proc.kill("SIGTERM");
    await proc.status;
  }
  const floor = rows[0];
  const f1 = (x: number) => x.toFixed(1);
  const over = (x: number, base: number) => `${x >= base ? "+" : "−"}${f1(Math.abs(x - base))}`;
  const table = [
    "| variant | CPU per turn, 50 paced streams (ms) | over the adapter | CPU per turn, one at a time, wire speed (ms) | over the adapter |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows.map((r) =>
      `| ${r.variant} | ${f1(r.paced)} | ${r === floor ? "—" : over(r.paced, floor.paced)} | ${
        f1(r.wire)
      } | ${r === floor ? "—" : over(r.wire, floor.wire)} |`
    ),
  ];
  const ours = rows[1], sdk = rows[2];
  const cut = (a: number, b: number) => `${((1 - a / b) * 100).toFixed(0)}%`;
  return [
    "## Chat engine: CPU per turn against the SDK's loop",
    "",
    "One chat turn of the bench fixture (openai-text.chunks.txt: 302 chunks, a pure text answer) " +
    "through the real OpenAI adapter, read from the replay server in another process. Every " +
    "variant runs in this process, so each figure also holds the bench's own reading of the " +
    "stream, the same for all. CPU = user + system time of this process per finished turn " +
    "(`process.cpuUsage`), over 8 s with 50 closed-loop clients (replay paced at 10 ms a chunk) " +
    "and over 4 s one turn at a time (no pacing); two rounds in opposite orders, each " +
    "variant's lower figure. Source: tests/bench/engine_bench.ts.",
    "",
    ...table,
    "",
    `Our engine uses ${cut(ours.paced, sdk.paced)} less CPU per turn than the SDK's loop with ` +
    `paced streams and ${cut(ours.wire, sdk.wire)} less at wire speed; what it adds over the ` +
    `adapter is ${f1(ours.paced - floor.paced)} ms per turn against the SDK loop's ` +
    `${f1(sdk.paced - floor.paced)} ms.`,
  ].join("\n");
}

if (import.meta.main) console.log(await run());
