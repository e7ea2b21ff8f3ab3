/**
 * Memory allocated per chat turn, and held by a turn while it streams: the app against the
 * floor server over the same adapter, in one process, the same turns. Unlike the timed
 * benches the allocation does not move with the machine's load, and allocation is what V8's
 * collector is paid for: on a server streaming many answers the garbage collector is a large
 * share of the CPU. What a turn holds while it streams is what that collector copies, and
 * promotes, again and again.
 *
 *   deno run -A tests/bench/alloc_bench.ts
 *
 * The replayed provider (chat_bench_child.ts `replay`, openai-text.chunks.txt: 302 chunks)
 * runs in its own process. Variants, each a request handler in this process:
 * - app: the real app (createServerApp, in-memory KV, OpenAI Chat Completions adapter);
 * - app without the stream log: the same with a log that writes nothing;
 * - floor: the adapter's `doStream` written out as UI chunks (no KV, checks, history, engine).
 * Allocated: after 20 warm-up turns each, V8's sampling heap profiler (node:inspector, one
 * sample per 1 KiB, objects the collector freed included) records `TURNS` sequential turns,
 * unpaced; the figure is the bytes sampled per turn. Held: see `heldPerTurn`. Only the
 * JavaScript heap is sampled: ArrayBuffer backing stores (external memory) are not in it.
 */
import { Session } from "node:inspector";
import defaultConfig from "@/fresh.config.ts";
import { createServerApp } from "@/lib/server.ts";
import { floorHandler, silentStreamLog } from "./floor_server.ts";
import { listeningPort } from "../support/listening.ts";

const CHILD = new URL("./chat_bench_child.ts", import.meta.url).pathname;
const QUESTION = "What is Harmony Day and when is it celebrated?";
const TURNS = 60;
const WARM = 20;

type Handler = (request: Request) => Promise<Response>;

async function appHandler(replay: string, withLog: boolean): Promise<Handler> {
  const big = { requestsPerMinute: 1e9, tokensPerDay: 1e12 };
  const { app } = await createServerApp({
    env: {
      OPENAI_API_KEY: "x",
      OPENAI_BASE_URL: `${replay}/v1`,
      OPENAI_API: "chat",
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
    },
    config: { ...defaultConfig, limits: { visitor: big, ip: big } },
    kv: await Deno.openKv(":memory:"),
    // In memory: no other process can write it, so kv.watch sees every write (as on Deploy).
    kvWatchSeesEveryWriter: true,
    ...(withLog ? {} : { services: { streamLog: silentStreamLog() } }),
  });
  return (request) => Promise.resolve(app(request));
}

/** One turn through `handler`, read to its end; the visitor cookie of the first is kept. */
function turner(handler: Handler): () => Promise<void> {
  let cookie = "";
  return async () => {
    const response = await handler(
      new Request("http://127.0.0.1/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({
          id: "c" + crypto.randomUUID().replaceAll("-", "").slice(0, 20),
          trigger: "submit-message",
          model: "openai/gpt-4.1-mini",
          message: { id: "u1", role: "user", parts: [{ type: "text", text: QUESTION }] },
        }),
      }),
    );
    cookie ||= response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const { head, tail } = await readEnds(response);
    if (response.status !== 200 || !tail.includes("data: [DONE]")) {
      throw new Error(`A bench turn answered ${response.status}: ${head}`);
    }
  };
}

/**
 * The body's first and last chunks as text, read as it streams: a client that kept the whole
 * body would count its answers among what the server holds, and one that decoded every chunk
 * would add its own garbage to every handler's figure.
 */
async function readEnds(response: Response): Promise<{ head: string; tail: string }> {
  let first: Uint8Array | null = null;
  let last: Uint8Array | null = null;
  for await (const chunk of response.body!) {
    first ??= chunk;
    last = chunk;
  }
  const decoder = new TextDecoder();
  return {
    head: first ? decoder.decode(first).slice(0, 200) : "",
    tail: last ? decoder.decode(last) : "",
  };
}

interface HeapNode {
  selfSize: number;
  children: HeapNode[];
}

function post<T>(session: Session, method: string, params: object = {}): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(
      method,
      params,
      (error: Error | null, result: unknown) => error ? reject(error) : resolve(result as T),
    )
  );
}

/** KiB the sampling heap profiler saw allocated per turn over `TURNS` turns. */
async function allocatedPerTurn(session: Session, turn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < WARM; i++) await turn();
  await post(session, "HeapProfiler.startSampling", {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < TURNS; i++) await turn();
  const { profile } = await post<{ profile: { head: HeapNode } }>(
    session,
    "HeapProfiler.stopSampling",
  );
  return totalBytes(profile.head) / 1024 / TURNS;
}

/** Streams in flight while the held memory is sampled, and how long the window lasts. */
const HELD_STREAMS = 19;
const HELD_RAMP_MS = 3_500;
const HELD_WINDOW_MS = 7_000;

/**
 * KiB each turn in flight holds: `HELD_STREAMS` clients stream paced turns (302 chunks, one
 * every 10 ms: about 3 s each) without pause; over a window twice a turn's length the
 * profiler samples allocations, a full collection at its end drops what died, and what is
 * left (divided by the turns in flight) is what the young-generation collector copied and
 * promoted for them: the state each turn holds while it streams.
 */
async function heldPerTurn(session: Session, turn: () => Promise<void>): Promise<number> {
  let stop = false;
  const clients = Array.from({ length: HELD_STREAMS }, async (_, i) => {
    await new Promise((r) => setTimeout(r, HELD_RAMP_MS * i / HELD_STREAMS));
    while (!stop) await turn();
  });
  await new Promise((r) => setTimeout(r, HELD_RAMP_MS));
  await post(session, "HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: false,
    includeObjectsCollectedByMinorGC: false,
  });
  await new Promise((r) => setTimeout(r, HELD_WINDOW_MS));
  await post(session, "HeapProfiler.collectGarbage");
  const { profile } = await post<{ profile: { head: HeapNode } }>(
    session,
    "HeapProfiler.stopSampling",
  );
  stop = true;
  await Promise.all(clients);
  return totalBytes(profile.head) / 1024 / HELD_STREAMS;
}

function totalBytes(node: HeapNode): number {
  return node.selfSize + node.children.reduce((n, c) => n + totalBytes(c), 0);
}

/** Runs the bench and returns its section of the bench report. */
export async function run(): Promise<string> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, "replay", "openai-text.chunks.txt"],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const replay = `http://127.0.0.1:${await listeningPort(proc.stdout)}`;
  const session = new Session();
  session.connect();
  // The app writes one JSON log line a request; they are not the bench's output.
  const log = console.log;
  console.log = () => {};
  const kib: Record<string, number> = {};
  const held: Record<string, number> = {};
  try {
    const variants: [string, Handler][] = [
      ["app", await appHandler(replay, true)],
      ["app without the stream log", await appHandler(replay, false)],
      ["floor", floorHandler(replay)],
    ];
    const turners = variants.map(([name, handler]) => [name, turner(handler)] as const);
    for (const [name, turn] of turners) kib[name] = await allocatedPerTurn(session, turn);
    await (await fetch(`${replay}/__pace?ms=10`, { method: "POST" })).text();
    for (const [name, turn] of turners) held[name] = await heldPerTurn(session, turn);
  } finally {
    console.log = log;
    session.disconnect();
    proc.kill("SIGTERM");
    await proc.status;
  }
  const overFloor = (of: Record<string, number>, name: string) =>
    name === "floor"
      ? "—"
      : `+${Math.round(of[name] - of.floor)} (${((of[name] / of.floor - 1) * 100).toFixed(0)}%)`;
  const row = (name: string) =>
    `| ${name} | ${Math.round(kib[name])} | ${overFloor(kib, name)} | ${held[name].toFixed(1)} | ${
      overFloor(held, name)
    } |`;
  return [
    "## Chat: memory allocated and held per turn",
    "",
    `\`tests/bench/alloc_bench.ts\`. One turn of the 302-chunk fixture (openai-text.chunks.txt, a`,
    "pure text answer, replayed at wire speed from another process), through each request handler",
    `in this process; ${TURNS} sequential turns after ${WARM} warm-up turns. Allocated = what V8's`,
    "sampling heap profiler saw (one sample a KiB, freed objects included): the JavaScript heap",
    "only, not ArrayBuffer backing stores. It does not move with the machine's load.",
    "",
    `Held = what a turn keeps while it streams: ${HELD_STREAMS} clients stream paced turns (one chunk`,
    `every 10 ms, about 3 s a turn) without pause; the profiler samples (one sample per 256 bytes)`,
    `over ${
      HELD_WINDOW_MS / 1000
    } s, a full collection at its end drops what died, and what is left,`,
    "divided by the turns in flight, is the state the young-generation collector copies and",
    "promotes for each of them. It moves by about a tenth from run to run.",
    "",
    "| handler | KiB allocated per turn | over the floor | KiB held per turn in flight | over the floor |",
    "| --- | ---: | ---: | ---: | ---: |",
    row("app"),
    row("app without the stream log"),
    row("floor"),
  ].join("\n");
}

if (import.meta.main) console.log(await run());
