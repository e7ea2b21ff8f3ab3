/**
 * Memory allocated per chat turn: the app against the floor server over the same adapter,
 * in one process, the same turns. Unlike the timed benches this figure does not move with
 * the machine's load, and allocation is what V8's collector is paid for: on a server
 * streaming many answers the garbage collector is a large share of the CPU.
 *
 *   deno run -A tests/bench/alloc_bench.ts
 *
 * The replayed provider (chat_bench_child.ts `replay`, openai-text.chunks.txt: 302 chunks, no
 * pacing) runs in its own process. Variants, each a request handler in this process:
 * - app: the real app (createServerApp, in-memory KV, OpenAI Chat Completions adapter);
 * - app without the stream log: the same with a log that writes nothing;
 * - floor: the adapter's `doStream` written out as UI chunks (no KV, checks, history, engine).
 * After 20 warm-up turns each, V8's sampling heap profiler (node:inspector, one sample per
 * 1 KiB, objects the collector freed included) records `TURNS` sequential turns; the figure
 * is the bytes sampled per turn. Only the JavaScript heap is sampled: ArrayBuffer backing
 * stores (external memory) are not in it.
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
    const text = await response.text();
    if (response.status !== 200 || !text.includes("data: [DONE]")) {
      throw new Error(`A bench turn answered ${response.status}: ${text.slice(0, 200)}`);
    }
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
  const total = (node: HeapNode): number =>
    node.selfSize + node.children.reduce((n, c) => n + total(c), 0);
  return total(profile.head) / 1024 / TURNS;
}

/** Runs the bench and returns its BENCHMARKS.md section. */
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
  try {
    const variants: [string, Handler][] = [
      ["app", await appHandler(replay, true)],
      ["app without the stream log", await appHandler(replay, false)],
      ["floor", floorHandler(replay)],
    ];
    for (const [name, handler] of variants) {
      kib[name] = await allocatedPerTurn(session, turner(handler));
    }
  } finally {
    console.log = log;
    session.disconnect();
    proc.kill("SIGTERM");
    await proc.status;
  }
  const floor = kib.floor;
  const row = (name: string) =>
    `| ${name} | ${Math.round(kib[name])} | ${
      name === "floor"
        ? "—"
        : `+${Math.round(kib[name] - floor)} (${((kib[name] / floor - 1) * 100).toFixed(0)}%)`
    } |`;
  return [
    "## Chat: memory allocated per turn (issue 16)",
    "",
    `\`tests/bench/alloc_bench.ts\`. One turn of the 302-chunk fixture (openai-text.chunks.txt, a`,
    "pure text answer, replayed at wire speed from another process), through each request handler",
    `in this process; ${TURNS} sequential turns after ${WARM} warm-up turns. Allocated = what V8's`,
    "sampling heap profiler saw (one sample a KiB, freed objects included): the JavaScript heap",
    "only, not ArrayBuffer backing stores. It does not move with the machine's load.",
    "",
    "| handler | KiB allocated per turn | over the floor |",
    "| --- | ---: | ---: |",
    row("app"),
    row("app without the stream log"),
    row("floor"),
  ].join("\n");
}

if (import.meta.main) console.log(await run());
