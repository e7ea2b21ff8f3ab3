/**
 * Chat bench: the latency the server adds to the first token, against calling
 * the provider (the replay server) directly, at 1, 50 and 200 concurrent
 * streams; truncated streams; the server's peak memory at 200.
 *
 *   deno run -A --v8-flags=--expose-gc tests/bench/chat_bench.ts
 *
 * Three processes, all on 127.0.0.1: this one is only the client; the replay
 * server (tests/support/replay_server.ts replaying "openai-text.chunks.txt",
 * OpenAI Chat Completions framing, ending in `data: [DONE]`) and the real app
 * (OpenAI model over Chat Completions pointed at the replay server, in-memory
 * KV, rate limits lifted) each run in their own child process
 * (tests/bench/chat_bench_child.ts), so the app's memory is its own.
 *
 * - direct: POST <replay>/v1/chat/completions; first token = the first SSE event
 *   with a non-empty `choices[0].delta.content`.
 * - through: POST /api/chat (fresh chat id per request, one visitor cookie,
 *   model openai/gpt-4.1-mini); first token = the first `text-delta` event. The
 *   fixture is a pure text answer, so the turn makes one provider call and no
 *   tool call.
 * - load: N=1 one turn at a time; at 50 and 200 "steady" (N closed-loop clients, so N
 *   streams are in flight while turns keep arriving; the targeted rows) and "burst" (N turns
 *   in the same instant; stress rows without a target).
 * - added = p50(through) − p50(direct) at the same concurrency (same for p95).
 * - floor: the targeted rows also measure a third child, the thinnest server over the same
 *   adapter (chat_bench_child.ts peer), like "through": what any server on the adapter adds
 *   on this machine, in the same run.
 * - truncated: a direct stream without `data: [DONE]`; a chat stream without a
 *   `finish` event or without `data: [DONE]` (or not a 200).
 * - memory: the app process's VmRSS from /proc sampled every 10 ms during the
 *   N=200 rounds, and its VmHWM after them (peak reset through clear_refs first).
 */
import { percentile } from "@/lib/search/beir.ts";
import { listeningPort } from "../support/listening.ts";

const FIXTURE = "openai-text.chunks.txt";
const CHILD = new URL("./chat_bench_child.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;
/** One measured setting. */
interface Phase {
  n: number;
  /**
   * "steady": n clients, each sending its next turn as soon as its previous stream ended,
   * started spread over one stream's length, so n streams are always in flight and turns
   * arrive one by one, as visitors do; `rounds` is then the measuring window in seconds.
   * "burst": n turns sent in the same instant per round (a thundering herd, all queued
   * behind each other on arrival).
   */
  mode: "steady" | "burst";
  /** Burst: rounds, each one direct batch of `n` and one through batch. Steady: seconds per side. */
  rounds: number;
  /** Delay the replay server puts between chunks (0: as fast as the socket takes them). */
  paceMs: number;
  /** Whether this phase counts against the targets (stress phases are reported only). */
  target: boolean;
  /** Sample the app's memory during this phase. */
  memory?: boolean;
}
/**
 * At N=1 pacing cannot matter, so chunks go at wire speed, one turn at a time. At 50 and 200
 * the replay is paced like a fast real provider (a chunk every 10 ms ≈ 100 tokens/s; the
 * fixture's 302 chunks take ~3 s) and the load is steady: that many streams in flight while
 * new turns arrive. The burst rows after them (every turn in the same instant, and then also
 * at wire speed) are stress tests, reported, not targeted.
 */
const PLAN: Phase[] = [
  { n: 1, mode: "burst", rounds: 150, paceMs: 0, target: true },
  { n: 50, mode: "steady", rounds: 12, paceMs: 10, target: true },
  { n: 200, mode: "steady", rounds: 12, paceMs: 10, target: true, memory: true },
  { n: 50, mode: "burst", rounds: 4, paceMs: 10, target: false },
  { n: 200, mode: "burst", rounds: 3, paceMs: 10, target: false },
  { n: 200, mode: "burst", rounds: 2, paceMs: 0, target: false },
];
const TARGET = { p50: 2, p95: 10 };
const QUESTION = "What is Harmony Day and when is it celebrated?";

interface Child {
  pid: number;
  port: number;
  /** Lines the child wrote to stderr, and its distinct `…Error: message` lines with counts. */
  log(): { lines: number; errors: Map<string, number> };
  kill(): Promise<void>;
}

/** Spawns a chat_bench_child.ts process and waits for its "listening <port>" line. */
async function spawnChild(args: string[]): Promise<Child> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // The child's log is summarised in the section (a failing burst logs thousands of lines).
  const errors = new Map<string, number>();
  let logLines = 0;
  (async () => {
    let buf = "";
    for await (const text of proc.stderr.pipeThrough(new TextDecoderStream())) {
      buf += text;
      const lines = buf.split("\n");
      buf = lines.pop()!;
      for (const line of lines) {
        logLines++;
        const m = /^(?!\s+at )(?:.*?\s)?(\w*Error: .*)$/.exec(line);
        if (!m) continue;
        // Keys and numbers vary per request: fold them so equal errors count together.
        const msg = m[1].replace(/\[\[.*\]\]/g, "[…]").replace(/\d+/g, "N").slice(0, 200);
        errors.set(msg, (errors.get(msg) ?? 0) + 1);
      }
    }
  })().catch(() => {});
  const timer = setTimeout(() => {
    try {
      proc.kill("SIGKILL");
    } catch { /* already gone */ }
  }, 60_000);
  let port: number;
  try {
    port = await listeningPort(proc.stdout);
  } catch (error) {
    throw new Error(`chat_bench_child.ts ${args.join(" ")}: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  return {
    pid: proc.pid,
    port,
    log: () => ({ lines: logLines, errors }),
    async kill() {
      try {
        proc.kill("SIGTERM");
      } catch { /* already gone */ }
      await proc.status;
    },
  };
}

/** One measured stream. */
interface Sample {
  /** ms from just before fetch() to the chunk holding the first token; NaN when none came. */
  ttft: number;
  /** Not a 200 (no stream at all). */
  failed: boolean;
  /** A 200 whose stream did not end properly. */
  truncated: boolean;
}

/**
 * Reads an SSE body event by event. `firstToken(data)` is asked of each `data:` payload
 * until it says one carries the first token. After that the reader stays cheap (a
 * substring check per payload, no JSON parse): the load generator shares the cores with
 * the servers it measures, and must not slow them down more than a browser would.
 */
async function readEvents(
  res: Response,
  t0: number,
  firstToken: (data: string) => boolean,
): Promise<{ ttft: number; last: string | undefined; finished: boolean; errored: boolean }> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  let ttft = NaN;
  let last: string | undefined;
  let finished = false, errored = false;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    const at = performance.now();
    buf += value;
    let end;
    while ((end = buf.indexOf("\n\n")) !== -1) {
      const event = buf.slice(0, end);
      buf = buf.slice(end + 2);
      for (const line of event.split("\n")) {
        if (!line.startsWith("data: ")) continue;
        const data = line.slice(6);
        last = data;
        if (data.includes('"type":"finish"')) finished = true;
        if (data.includes('"type":"error"')) errored = true;
        if (Number.isNaN(ttft) && firstToken(data)) ttft = at - t0;
      }
    }
  }
  return { ttft, last, finished, errored };
}

function directBody(): string {
  return JSON.stringify({
    model: "gpt-4.1-mini",
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "system", content: "You answer questions about the site." }, {
      role: "user",
      content: QUESTION,
    }],
  });
}

async function direct(replayUrl: string): Promise<Sample> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${replayUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer x" },
      body: directBody(),
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      return { ttft: NaN, failed: true, truncated: false };
    }
    const { ttft, last } = await readEvents(res, t0, (data) => {
      if (data === "[DONE]") return false;
      return !!JSON.parse(data).choices?.[0]?.delta?.content;
    });
    return { ttft, failed: false, truncated: last !== "[DONE]" };
  } catch (error) {
    console.error("direct stream failed:", error);
    return { ttft: NaN, failed: false, truncated: true };
  }
}

function chatId(): string {
  return "c" + crypto.randomUUID().replaceAll("-", "").slice(0, 20);
}

/** Non-200 chat answers, by status and body. */
const failures = new Map<string, number>();

async function through(appUrl: string, cookie: string): Promise<Sample> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${appUrl}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({
        id: chatId(),
        trigger: "submit-message",
        model: "openai/gpt-4.1-mini",
        message: {
          id: "u_" + crypto.randomUUID().slice(0, 8),
          role: "user",
          parts: [{ type: "text", text: QUESTION }],
        },
      }),
    });
    if (res.status !== 200) {
      const key = `${res.status} ${(await res.text()).slice(0, 200)}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
      return { ttft: NaN, failed: true, truncated: false };
    }
    const { ttft, last, finished, errored } = await readEvents(res, t0, (data) => {
      if (data === "[DONE]") return false;
      return (JSON.parse(data) as { type: string }).type === "text-delta";
    });
    return {
      ttft,
      failed: false,
      truncated: !finished || errored || last !== "[DONE]",
    };
  } catch (error) {
    console.error("chat stream failed:", error);
    return { ttft: NaN, failed: false, truncated: true };
  }
}

/** Runs `n` streams at once. */
function batch(n: number, one: () => Promise<Sample>): Promise<Sample[]> {
  return Promise.all(Array.from({ length: n }, one));
}

/** One stream's length at 10 ms a chunk: steady clients start spread over it. */
const STREAM_MS = 3_000;

/**
 * `n` closed-loop clients for `seconds` (after one stream's length of ramp-up, not
 * measured): each starts its next stream when its last one ended. Returns the samples
 * of streams that started inside the window.
 */
async function steady(n: number, seconds: number, one: () => Promise<Sample>): Promise<Sample[]> {
  const t0 = performance.now();
  const from = t0 + STREAM_MS, until = from + seconds * 1000;
  const samples: Sample[] = [];
  await Promise.all(Array.from({ length: n }, async (_, i) => {
    await new Promise((r) => setTimeout(r, (STREAM_MS * i) / n));
    while (performance.now() < until) {
      const started = performance.now();
      const sample = await one();
      if (started >= from) samples.push(sample);
    }
  }));
  return samples;
}

/** A /proc/<pid>/status field in bytes ("VmRSS", "VmHWM"), or NaN off Linux. */
function procStatus(pid: number, field: string): number {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1];
    return kb ? Number(kb) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; NaN off Linux. */
function cpuSeconds(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // Fields after the command name (which may hold spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in 1/100 s ticks
  } catch {
    return NaN;
  }
}

/** Runs `work` and adds the app's CPU seconds and the wall seconds it took to `into`. */
async function metered<T>(
  pid: number,
  into: { cpu: number; wall: number },
  work: () => Promise<T>,
) {
  const cpu0 = cpuSeconds(pid), t0 = performance.now();
  const out = await work();
  into.cpu += cpuSeconds(pid) - cpu0;
  into.wall += (performance.now() - t0) / 1000;
  return out;
}

/** Resets the process's peak RSS (VmHWM) to its current RSS; false when not allowed. */
function resetPeak(pid: number): boolean {
  try {
    Deno.writeTextFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

const f2 = (x: number) => Number.isFinite(x) ? x.toFixed(2) : "–";
const mb = (b: number) => Number.isFinite(b) ? `${(b / 1048576).toFixed(0)} MB` : "n/a";

interface Side {
  ttft: number[];
  failed: number;
  truncated: number;
}

interface Result extends Phase {
  direct: Side;
  through: Side;
  /** The floor server over the same adapter (targeted rows only). */
  peer: Side;
  streams: number;
  /** The app's CPU and the wall time while the chat side ran. */
  appLoad: { cpu: number; wall: number };
}

function side(): Side {
  return { ttft: [], failed: 0, truncated: 0 };
}

function add(to: Side, samples: Sample[]): void {
  for (const s of samples) {
    if (s.failed) to.failed++;
    if (s.truncated) to.truncated++;
    if (Number.isFinite(s.ttft)) to.ttft.push(s.ttft);
  }
}

/** How a row's turns arrived. */
function load(r: Result): string {
  if (r.n === 1) return "one at a time";
  return r.mode === "steady" ? `steady, ${r.rounds} s` : `burst ×${r.rounds}`;
}

/** The app's stderr, summarised. */
function appLog(log: { lines: number; errors: Map<string, number> }): string {
  if (log.lines === 0) return "The app process logged nothing.";
  const top = [...log.errors].sort((a, b) => b[1] - a[1]).slice(0, 5)
    .map(([msg, n]) => `${n}× \`${msg}\``);
  return `The app process logged ${log.lines} lines${
    top.length ? `; its error lines, most frequent first: ${top.join("; ")}` : ""
  }.`;
}

/** Runs the bench; returns the markdown section. */
export async function run(): Promise<string> {
  const started = performance.now();
  const replay = await spawnChild(["replay", FIXTURE]);
  const replayUrl = `http://127.0.0.1:${replay.port}`;
  const app = await spawnChild(["app", replayUrl]);
  const appUrl = `http://127.0.0.1:${app.port}`;
  const peer = await spawnChild(["peer", replayUrl]);
  const peerUrl = `http://127.0.0.1:${peer.port}`;
  const pace = async (ms: number) => {
    await (await fetch(`${replayUrl}/__pace?ms=${ms}`, { method: "POST" })).text();
  };
  const results: Result[] = [];
  const mem = { idle: NaN, before: NaN, sampledPeak: NaN, hwm: NaN, reset: false, samples: 0 };
  try {
    // The visitor cookie, from a first (warm-up) turn.
    const first = await fetch(`${appUrl}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: chatId(),
        trigger: "submit-message",
        model: "openai/gpt-4.1-mini",
        message: { id: "u_warm", role: "user", parts: [{ type: "text", text: QUESTION }] },
      }),
    });
    const cookie = first.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    if (first.status !== 200 || !cookie) {
      throw new Error(`warm-up turn answered ${first.status}: ${await first.text()}`);
    }
    await first.text();
    mem.idle = procStatus(app.pid, "VmRSS");

    // Warm-up: JIT, connection pools, KV in both children.
    for (let i = 0; i < 30; i++) {
      await direct(replayUrl);
      await through(appUrl, cookie);
    }
    for (let i = 0; i < 30; i++) await through(peerUrl, "");
    await batch(20, () => direct(replayUrl));
    await batch(20, () => through(appUrl, cookie));
    await batch(20, () => through(peerUrl, ""));
    failures.clear();

    for (const phase of PLAN) {
      const r: Result = {
        ...phase,
        direct: side(),
        through: side(),
        peer: side(),
        streams: 0,
        appLoad: { cpu: 0, wall: 0 },
      };
      const throughSide = (work: () => Promise<Sample[]>) => metered(app.pid, r.appLoad, work);
      await pace(phase.paceMs);
      let sampler: ReturnType<typeof setInterval> | undefined;
      let peak = 0;
      if (phase.memory) {
        await new Promise((res) => setTimeout(res, 500));
        mem.before = procStatus(app.pid, "VmRSS");
        mem.reset = resetPeak(app.pid);
        sampler = setInterval(() => {
          const rss = procStatus(app.pid, "VmRSS");
          mem.samples++;
          if (rss > peak) peak = rss;
        }, 10);
      }
      if (phase.mode === "steady") {
        // The app side first and then the direct side, each with the replay server alone.
        const samples = await throughSide(() =>
          steady(phase.n, phase.rounds, () => through(appUrl, cookie))
        );
        add(r.through, samples);
        if (phase.target) {
          add(r.peer, await steady(phase.n, phase.rounds, () => through(peerUrl, "")));
        }
        add(r.direct, await steady(phase.n, phase.rounds, () => direct(replayUrl)));
        r.streams = samples.length;
      } else {
        for (let round = 0; round < phase.rounds; round++) {
          // Alternate which side goes first so drift weighs on both alike.
          if (round % 2 === 0) {
            add(r.direct, await batch(phase.n, () => direct(replayUrl)));
            add(r.through, await throughSide(() => batch(phase.n, () => through(appUrl, cookie))));
          } else {
            add(r.through, await throughSide(() => batch(phase.n, () => through(appUrl, cookie))));
            add(r.direct, await batch(phase.n, () => direct(replayUrl)));
          }
          if (phase.target) add(r.peer, await batch(phase.n, () => through(peerUrl, "")));
          r.streams += phase.n;
        }
      }
      if (sampler !== undefined) {
        clearInterval(sampler);
        mem.sampledPeak = peak;
        mem.hwm = procStatus(app.pid, "VmHWM");
      }
      results.push(r);
      console.error(
        `chat bench: N=${phase.n} ${phase.mode} pace ${phase.paceMs} ms: direct p50 ${
          f2(percentile(r.direct.ttft, 50))
        } ms, through p50 ${f2(percentile(r.through.ttft, 50))} ms, failed ${r.through.failed} (${
          ((performance.now() - started) / 1000).toFixed(0)
        } s)`,
      );
    }
  } finally {
    await app.kill();
    await peer.kill();
    await replay.kill();
  }

  const rows: string[] = [];
  let pass = true;
  const verdicts: string[] = [];
  for (const r of results) {
    const d50 = percentile(r.direct.ttft, 50), d95 = percentile(r.direct.ttft, 95);
    const t50 = percentile(r.through.ttft, 50), t95 = percentile(r.through.ttft, 95);
    const a50 = t50 - d50, a95 = t95 - d95;
    const bad = r.direct.failed + r.direct.truncated + r.through.failed + r.through.truncated;
    const floor = r.peer.ttft.length > 0;
    const p50 = floor ? percentile(r.peer.ttft, 50) - d50 : NaN;
    const p95 = floor ? percentile(r.peer.ttft, 95) - d95 : NaN;
    // A row that measured no stream on a side proves nothing: it fails rather than passes.
    const measured = r.direct.ttft.length > 0 && r.through.ttft.length > 0;
    const ok = measured && a50 <= TARGET.p50 && a95 <= TARGET.p95 && bad === 0;
    const verdict = r.target ? (ok ? "pass" : "**FAIL**") : "stress (no target)";
    if (r.target) {
      pass &&= ok;
      verdicts.push(`N=${r.n} ${ok ? "pass" : "FAIL"}`);
    }
    rows.push(
      `| ${r.n} | ${load(r)} | ${r.paceMs ? `${r.paceMs} ms` : "none"} | ${r.streams} | ${
        f2(d50)
      } | ${f2(d95)} | ${f2(t50)} | ${f2(t95)} | **${f2(a50)}** | **${f2(a95)}** | ${f2(p50)} | ${
        f2(p95)
      } | ${
        (r.appLoad.cpu / r.appLoad.wall).toFixed(2)
      } | ${r.direct.truncated} / ${r.through.truncated} | ${r.direct.failed} / ${r.through.failed} | ${verdict} |`,
    );
  }
  const failureList = [...failures].map(([k, v]) => `${v}× \`${k.replaceAll("\n", " ")}\``);
  const hwmNote = mem.reset
    ? "its VmHWM (peak reset through clear_refs just before those rounds)"
    : "its VmHWM (the peak could not be reset, so it covers the whole run until then)";
  return [
    "## Chat: server-added latency to the first token",
    "",
    "`tests/bench/chat_bench.ts`. Time to first token calling the replay server directly",
    `(\`${FIXTURE}\`: 302 OpenAI Chat Completions chunks, then \`data: [DONE]\`) against`,
    "POST /api/chat on the real app using that replay server as its OpenAI endpoint",
    "(`OPENAI_API=chat`, model openai/gpt-4.1-mini; a pure text turn, no tool call). Three",
    "processes on 127.0.0.1: the bench (client only), the replay server and the app, each its",
    "own `deno run`; the app uses in-memory KV and rate limits raised out of the way. Every",
    "request is a new chat with one visitor cookie, each stream read to its end. Load: *one at",
    "a time*, sequential turns; *steady*, N clients that each send their next turn when their",
    "last stream ends, started spread over one stream's length (~3 s), so N streams are in",
    "flight at every moment while turns keep arriving: the targeted rows, measured over the",
    "window after a ramp-up, the chat side and then the direct side; *burst*, N turns sent in",
    "the same instant per round (direct and chat alternating), where every turn also waits for",
    "the N−1 that arrived with it: stress rows, reported without a target. First",
    "token: direct, the first event with non-empty `delta.content`; through, the first",
    "`text-delta` event. Added = p50(through) − p50(direct) at the same N (same for p95).",
    "Times in ms. Pace: the replay server's delay between chunks (10 ms ≈ a fast provider at",
    "~100 tokens/s; none = wire speed, a stress test where everything is CPU-bound).",
    "App CPU: the app process's CPU time over the wall time of the chat side (1.00 = one core",
    "busy; its JavaScript runs on one thread, so near 1 it is saturated).",
    "Floor: the same measure against the thinnest server over the same OpenAI adapter",
    "(`chat_bench_child.ts peer`: it parses the body, calls the adapter's `doStream` and writes",
    "the text as UI chunks; no KV, no checks, no history, no tools), measured in the same run",
    "between the chat and direct sides of the targeted rows: what any server built on the",
    "adapter adds on this machine.",
    `Targets: added p50 ≤ ${TARGET.p50} ms, added p95 ≤ ${TARGET.p95} ms, no truncated or failed streams.`,
    "",
    "| N concurrent | load | pace | streams (through) | direct p50 | direct p95 | through p50 | through p95 | added p50 | added p95 | floor added p50 | floor added p95 | app CPU (cores) | truncated (direct / through) | failed, not 200 (direct / through) | verdict |",
    "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows,
    "",
    `App process memory (measured from /proc on the app's own process, not the bench's): ` +
    `VmRSS ${mb(mem.idle)} after its first turn, ${mb(mem.before)} just before the paced N=200 ` +
    `rounds; during them, peak VmRSS sampled every 10 ms (${mem.samples} samples) ` +
    `**${mb(mem.sampledPeak)}**, and ${hwmNote} **${mb(mem.hwm)}**.`,
    "",
    failureList.length
      ? `Failed chat requests: ${failureList.join("; ")}.`
      : "No chat request failed.",
    "",
    appLog(app.log()),
    "",
    `**Result: ${pass ? "PASS" : "FAIL"}** against the targets (${verdicts.join(", ")}). ` +
    "Truncated = a 200 whose stream lacks `data: [DONE]` (direct) or a `finish` event or " +
    "`data: [DONE]` (through), or had an `error` event. On this 2-core machine the three " +
    "processes share the cores, so at N=50 and N=200 both sides include queueing behind the " +
    "other streams.",
  ].join("\n");
}

if (import.meta.main) console.log(await run());
