/**
 * Capacity bench ("streams one core holds"): how many steady paced streams one
 * core of the app holds, against the floor server over the same adapter, and the CPU each
 * server spends per 1,000 streamed tokens, with the AI SDK's own `streamText` loop beside
 * them, all in the same run.
 *
 *   deno run -A --v8-flags=--expose-gc tests/bench/capacity_bench.ts
 *
 * Pinning (`taskset`, util-linux): the servers (tests/bench/chat_bench_child.ts `app`,
 * `peer` = the floor, `sdk`) run on core 0, one of them loaded at a time; this process
 * (the load generator) and the provider stand-in (chat_bench_child.ts `stamped`: the chunks
 * of "openai-text.chunks.txt", one every 10 ms, the first text chunk stamped with the time it
 * was written) share core 1. Without `taskset` or with fewer than two
 * cores nothing is pinned and the section says the figures cannot be trusted.
 *
 * - Capacity: N closed-loop clients, each starting its next stream when its last ended,
 *   started spread over one stream's length (~3 s), measured over a window after that ramp.
 *   Each stream's first-token lag = when the client read the first text chunk − when the
 *   stand-in wrote it (the stamp; wall clocks of one machine). Added first-token p95 =
 *   p95 of that lag through the server − p95 straight from the stand-in at the same N, the
 *   mean of the direct probes on either side of the server's (the other core's load moves
 *   that baseline from minute to minute: direct p95s of 1 to 14 ms were seen at one N).
 *   A coarse pass (25, 50, 100, …, one round each) brackets both capacities; a grid of N
 *   across the bracket then gets three rounds per server, app and floor taking turns, and
 *   the median round decides whether a server holds N (≤ 10 ms, no stream failed or
 *   truncated). Where a server's last N held and first failed are more than a tenth apart,
 *   three N between them get three rounds more (every server whose bracket holds the N).
 *   Capacity = where the median crosses 10 ms, interpolated between the last N
 *   held and the first that failed, on the closest non-decreasing fit of the medians
 *   (tests/bench/capacity_curve.ts); a run in which a server held at some N after failing
 *   at a smaller one says it cannot be trusted. (Two runs of the earlier design, one probe
 *   per decision with a baseline before it, gave the same code 58% and 100%.)
 * - CPU per 1,000 streamed tokens: the replay answers 1,000 text chunks (the fixture's,
 *   repeated); 50 steady clients per server; the server process's CPU time (/proc) over the
 *   window divided by the text chunks the stand-in wrote meanwhile, × 1,000; the median of
 *   three rounds. One answer is 1,000 tokens, so this is also the CPU of a 1,000-token
 *   answer, start to end.
 */
import { percentile } from "@/lib/search/beir.ts";
import { listeningPort } from "../support/listening.ts";
import { type Capacity, capacityFrom, refineBetween } from "./capacity_curve.ts";

const FIXTURE = "openai-text.chunks.txt";
const CHILD = new URL("./chat_bench_child.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;
const QUESTION = "What is Harmony Day and when is it celebrated?";
/** One stream of the fixture at 10 ms a chunk (302 chunks). */
const STREAM_MS = 3_000;
/** Seconds measured after the ramp: about 100 streams at N = 25, for a p95 of the fifth largest. */
const WINDOW_S = 12;
const TARGET_P95_MS = 10;
/** The coarse pass's steps; it stops at the first step both servers fail. */
const COARSE_STEPS = [25, 50, 100, 200, 400, 800];
const CPU_CLIENTS = 50;
/**
 * Rounds at each N of the fine grid (and of the CPU figures), the median deciding: one
 * stall of another process on a core fails a p95 of a few dozen streams once, not twice.
 */
const ROUNDS = 3;
/** N of the fine grid across the coarse bracket: 25→50 in steps of about 6 streams. */
const FINE_POINTS = 5;
/** N probed inside a bracket (last N held, first failed) still wider than a tenth of its low end. */
const REFINE_POINTS = 3;
/** Deno Deploy's CPU time per request on the lower tier (averaged). */
const DEPLOY_CPU_MS = 50;

interface Child {
  pid: number;
  url: string;
  kill(): Promise<void>;
}

/** Whether `taskset` can run here. */
async function hasTaskset(): Promise<boolean> {
  try {
    return (await new Deno.Command("taskset", { args: ["-V"], stdout: "null", stderr: "null" })
      .output()).success;
  } catch {
    return false;
  }
}

async function spawnChild(args: string[], core: number | null): Promise<Child> {
  const deno = [Deno.execPath(), "run", "-A", CHILD, ...args];
  const argv = core === null ? deno : ["taskset", "-c", String(core), ...deno];
  const proc = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const port = await listeningPort(proc.stdout);
  return {
    pid: proc.pid,
    url: `http://127.0.0.1:${port}`,
    async kill() {
      try {
        proc.kill("SIGTERM");
      } catch { /* gone */ }
      await proc.status;
    },
  };
}

/** CPU ms (user + system, all threads) a process has used, from /proc; NaN off Linux. */
function cpuMs(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

interface Sample {
  /** ms from the stand-in writing the first text chunk to this client reading it. */
  lag: number;
  bad: boolean;
}

/** Wall-clock ms now, comparable across processes on this machine. */
const wallNow = () => performance.timeOrigin + performance.now();

/** Reads an SSE body cheaply: the first token's lag, and whether it ended properly. */
async function readStream(
  res: Response,
  isToken: (data: string) => boolean,
  endsWell: (tail: string) => boolean,
): Promise<Sample> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let lag = NaN, tail = "", first = true;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    if (first && isToken(value)) {
      first = false;
      const stamp = /⏱(\d+\.\d+)/.exec(value);
      lag = stamp ? wallNow() - Number(stamp[1]) : NaN;
    }
    tail = (tail + value).slice(-400);
  }
  return { lag, bad: first || !endsWell(tail) };
}

function direct(replay: string): () => Promise<Sample> {
  const body = JSON.stringify({
    model: "gpt-4.1-mini",
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "user", content: QUESTION }],
  });
  return async () => {
    try {
      const res = await fetch(`${replay}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer x" },
        body,
      });
      return await readStream(
        res,
        (v) => /"content":"[^"]/.test(v),
        (tail) => tail.includes("data: [DONE]"),
      );
    } catch {
      return { lag: NaN, bad: true };
    }
  };
}

function through(server: string, cookie: string): () => Promise<Sample> {
  return async () => {
    try {
      const res = await fetch(`${server}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({
          id: "c" + crypto.randomUUID().replaceAll("-", "").slice(0, 20),
          trigger: "submit-message",
          model: "openai/gpt-4.1-mini",
          message: { id: "u1", role: "user", parts: [{ type: "text", text: QUESTION }] },
        }),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        return { lag: NaN, bad: true };
      }
      return await readStream(
        res,
        (v) => v.includes('"type":"text-delta"'),
        (tail) => tail.includes('"type":"finish"') && tail.includes("data: [DONE]"),
      );
    } catch {
      return { lag: NaN, bad: true };
    }
  };
}

/** Text chunks the stand-in has written so far (its `GET /__sent`). */
async function sentTokens(replay: string): Promise<number> {
  return Number(await (await fetch(`${replay}/__sent`)).text());
}

/**
 * `n` closed-loop clients; the samples of streams started in the window after the ramp. With
 * `meter`, also the CPU the server `pid` used over the window and the tokens the stand-in
 * wrote meanwhile: counted at the source, since the app merges deltas that come close together
 * and its visitors read fewer, larger chunks than the provider wrote.
 */
async function steady(
  n: number,
  one: () => Promise<Sample>,
  meter?: { pid: number; replay: string },
): Promise<{ samples: Sample[]; cpuMs: number; tokens: number }> {
  const t0 = performance.now();
  const from = t0 + STREAM_MS, until = from + WINDOW_S * 1000;
  const samples: Sample[] = [];
  let cpu0 = NaN, cpu1 = NaN;
  let sent0: Promise<number> = Promise.resolve(NaN), sent1: Promise<number> = sent0;
  const meterStart = meter && setTimeout(() => {
    cpu0 = cpuMs(meter.pid);
    sent0 = sentTokens(meter.replay);
  }, STREAM_MS);
  const meterEnd = meter && setTimeout(() => {
    cpu1 = cpuMs(meter.pid);
    sent1 = sentTokens(meter.replay);
  }, STREAM_MS + WINDOW_S * 1000);
  await Promise.all(Array.from({ length: n }, async (_, i) => {
    await new Promise((r) => setTimeout(r, (STREAM_MS * i) / n));
    while (performance.now() < until) {
      const started = performance.now();
      const s = await one();
      if (started >= from) samples.push(s);
    }
  }));
  clearTimeout(meterStart);
  clearTimeout(meterEnd);
  return { samples, cpuMs: cpu1 - cpu0, tokens: await sent1 - await sent0 };
}

interface Probe {
  n: number;
  /** The p95 straight from the stand-in: the mean of the probes just before and after. */
  directP95: number;
  addedP95: number;
  bad: number;
  streams: number;
}

type Name = "app" | "floor";
const NAMES: Name[] = ["app", "floor"];

const f1 = (x: number) => Number.isFinite(x) ? x.toFixed(1) : "–";

/** The middle of an odd number of rounds (nearest-rank, as every percentile here). */
const median = (xs: number[]) => percentile(xs, 50);

const rounds = (probes: Probe[], n: number) => probes.filter((p) => p.n === n);

/** A round's added p95, or +∞ when a stream failed or was cut: such a round never holds. */
const score = (p: Probe) => p.bad ? Infinity : p.addedP95;

/** The median over a server's rounds at N; a server holds N when it is ≤ the target. */
function medianAt(probes: Probe[], n: number): number {
  return median(rounds(probes, n).map(score));
}

/** A server's capacity from its medians along the grid (see tests/bench/capacity_curve.ts). */
function capacityOf(probes: Probe[]): Capacity {
  const ns = [...new Set(probes.map((p) => p.n))];
  return capacityFrom(ns.map((n) => ({ n, median: medianAt(probes, n) })), TARGET_P95_MS);
}

/** Runs the bench; returns the markdown section. */
export async function run(): Promise<string> {
  const cores = navigator.hardwareConcurrency;
  const pinned = cores >= 2 && await hasTaskset();
  if (pinned) {
    // This process (the load generator), every thread, on core 1 with the replay server.
    await new Deno.Command("taskset", {
      args: ["-a", "-cp", "1", String(Deno.pid)],
      stdout: "null",
    })
      .output();
  }
  const server = pinned ? 0 : null, helper = pinned ? 1 : null;
  const replay = await spawnChild(["stamped", FIXTURE], helper);
  const pace = async (ms: number, tokens = 0) => {
    await (await fetch(`${replay.url}/__pace?ms=${ms}&tokens=${tokens}`, { method: "POST" }))
      .text();
  };
  const app = await spawnChild(["app", replay.url], server);
  const floor = await spawnChild(["peer", replay.url], server);
  const sdk = await spawnChild(["sdk", replay.url], server);
  const pids = { app: app.pid, floor: floor.pid, sdk: sdk.pid };
  const coarse: Record<Name, Probe[]> = { app: [], floor: [] };
  const fine: Record<Name, Probe[]> = { app: [], floor: [] };
  const cpu: Record<string, number[]> = { app: [], floor: [], sdk: [] };
  try {
    const sides = await warmUp(app.url, floor.url, sdk.url, replay.url);
    await pace(10);

    const directP95 = async (n: number) =>
      percentile(
        (await steady(n, direct(replay.url))).samples.map((s) => s.lag).filter(
          Number.isFinite,
        ),
        95,
      );
    /**
     * `rounds` rounds at N of each named server, every probe between two probes straight
     * from the stand-in (D S D S D…), its baseline the mean of those two: the other core's
     * load moves the baseline from minute to minute, and a baseline taken on one side only
     * decided probes by itself. The servers' order alternates from round to round.
     */
    const chain = async (n: number, names: Name[], rounds: number, into: Record<Name, Probe[]>) => {
      let before = await directP95(n);
      for (let round = 0; round < rounds; round++) {
        for (const name of round % 2 ? [...names].reverse() : names) {
          const { samples } = await steady(n, sides[name]);
          const after = await directP95(n);
          const base = (before + after) / 2;
          before = after;
          const p: Probe = {
            n,
            directP95: base,
            addedP95: percentile(samples.map((s) => s.lag).filter(Number.isFinite), 95) - base,
            bad: samples.filter((s) => s.bad).length,
            streams: samples.length,
          };
          into[name].push(p);
          console.error(
            `capacity bench: ${name} N=${n}: added p95 ${f1(p.addedP95)} ms (direct ${
              f1(base)
            }), ${p.bad} bad of ${p.streams}`,
          );
        }
      }
    };

    // Coarse: one round a step until both servers fail; it only brackets the fine grid.
    const pass: Record<Name, number> = { app: 0, floor: 0 };
    const fail: Record<Name, number> = { app: 0, floor: 0 };
    for (const n of COARSE_STEPS) {
      const open = NAMES.filter((name) => !fail[name]);
      if (!open.length) break;
      await chain(n, open, 1, coarse);
      for (const name of open) {
        if (score(coarse[name].at(-1)!) <= TARGET_P95_MS) pass[name] = n;
        else fail[name] = n;
      }
    }
    // Fine: a grid over both brackets, ROUNDS rounds at each point, the median deciding.
    const lo = Math.min(...NAMES.map((name) => pass[name] || fail[name] / 2)) || 1;
    const hi = Math.max(...NAMES.map((name) => fail[name] || pass[name]));
    const step = Math.max(1, (hi - lo) / (FINE_POINTS - 1));
    const grid = [
      ...new Set(Array.from({ length: FINE_POINTS }, (_, i) => Math.round(lo + i * step))),
    ];
    // A server is done once its median failed at two grid points in a row.
    const done = (name: Name) => {
      const ns = [...new Set(fine[name].map((p) => p.n))].sort((a, b) => a - b).slice(-2);
      return ns.length === 2 && ns.every((n) => medianAt(fine[name], n) > TARGET_P95_MS);
    };
    for (let i = 0;; i++) {
      const n = i < grid.length ? grid[i] : Math.round(grid.at(-1)! + (i - grid.length + 1) * step);
      // Past the grid only for a server that held at every point (its coarse failure was a
      // stall of the machine), up to twice the bracket.
      const open = i < grid.length
        ? NAMES.filter((name) => !done(name))
        : NAMES.filter((name) => capacityOf(fine[name]).failed === null);
      if (!open.length || n > 2 * hi) break;
      await chain(n, open, ROUNDS, fine);
    }
    // Below the grid for a server that failed even at its first point (its coarse pass there
    // came in a quiet moment).
    for (let n = Math.round(grid[0] - step); n >= 1; n = Math.round(n - step)) {
      const open = NAMES.filter((name) => capacityOf(fine[name]).held === 0);
      if (!open.length) break;
      await chain(n, open, ROUNDS, fine);
    }

    // Refine: the grid's step can leave a wide bracket, and a straight line across it misreads
    // a curve that bends at the limit. Every server whose bracket holds an N is probed there,
    // so where the brackets overlap both are read off the same points.
    const caps = Object.fromEntries(NAMES.map((name) => [name, capacityOf(fine[name])])) as Record<
      Name,
      Capacity
    >;
    const inside = (name: Name) =>
      refineBetween(caps[name], REFINE_POINTS, Math.max(4, Math.round(caps[name].held / 10)));
    const refine = [...new Set(NAMES.flatMap(inside))].sort((a, b) => a - b);
    for (const n of refine) {
      const open = NAMES.filter((name) =>
        inside(name).length && caps[name].held < n && n < caps[name].failed!
      );
      await chain(n, open, ROUNDS, fine);
    }

    await pace(10, 1000);
    for (let round = 0; round < ROUNDS; round++) {
      const names = ["app", "floor", "sdk"] as const;
      for (const name of round % 2 ? [...names].reverse() : names) {
        const r = await steady(CPU_CLIENTS, sides[name], { pid: pids[name], replay: replay.url });
        cpu[name].push(r.cpuMs / (r.tokens / 1000));
        console.error(`capacity bench: ${name}: ${f1(cpu[name].at(-1)!)} ms CPU per 1,000 tokens`);
      }
    }
  } finally {
    await pace(0).catch(() => {});
    await Promise.all([app.kill(), floor.kill(), sdk.kill()]);
    await replay.kill();
  }
  return section({ pinned, cores, coarse, fine, cpu });
}

/** The visitor cookie from a first turn, then JIT and connection pools warmed everywhere. */
async function warmUp(appUrl: string, floorUrl: string, sdkUrl: string, replay: string) {
  const first = await fetch(`${appUrl}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: "cwarm" + crypto.randomUUID().slice(0, 8),
      trigger: "submit-message",
      model: "openai/gpt-4.1-mini",
      message: { id: "u0", role: "user", parts: [{ type: "text", text: QUESTION }] },
    }),
  });
  const cookie = first.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  await first.text();
  if (first.status !== 200) throw new Error(`The warm-up turn answered ${first.status}.`);
  const sides = {
    app: through(appUrl, cookie),
    floor: through(floorUrl, ""),
    sdk: through(sdkUrl, ""),
  };
  for (const one of [...Object.values(sides), direct(replay)]) {
    for (let i = 0; i < 20; i++) await one();
  }
  return sides;
}

function section(r: {
  pinned: boolean;
  cores: number;
  coarse: Record<Name, Probe[]>;
  fine: Record<Name, Probe[]>;
  cpu: Record<string, number[]>;
}): string {
  const cap = { app: capacityOf(r.fine.app), floor: capacityOf(r.fine.floor) };
  const share = cap.floor.capacity ? cap.app.capacity / cap.floor.capacity : NaN;
  const ns = [...new Set([...r.fine.app, ...r.fine.floor].map((p) => p.n))].sort((a, b) => a - b);
  const cell = (name: Name, n: number) => {
    const tries = rounds(r.fine[name], n);
    if (!tries.length) return "—";
    const m = medianAt(r.fine[name], n);
    const bad = tries.reduce((sum, p) => sum + p.bad, 0);
    return `**${Number.isFinite(m) ? f1(m) + " ms" : "cut"}** ${m <= TARGET_P95_MS ? "✓" : "✗"} (${
      tries.map((p) => f1(p.addedP95)).join(" / ")
    }${bad ? `; ${bad} bad` : ""})`;
  };
  const directs = (n: number) => {
    const d = [...rounds(r.fine.app, n), ...rounds(r.fine.floor, n)].map((p) => p.directP95);
    return `${f1(Math.min(...d))}–${f1(Math.max(...d))}`;
  };
  const coarseLine = (name: Name) =>
    r.coarse[name].map((p) => `${p.n}: ${f1(p.addedP95)} ms${p.bad ? ` (${p.bad} bad)` : ""}`)
      .join(", ");
  const capText = (name: Name) => {
    const c = cap[name];
    return c.failed === null
      ? `${c.capacity} streams (held at every N probed)`
      : `${c.capacity} streams (held at ${c.held || "none"}, failed at ${c.failed})`;
  };
  const trust = r.pinned
    ? `${r.cores} cores: the servers pinned to core 0, the load generator and the replay server to core 1 (taskset). Core 1 is shared by two processes, so at large N the direct baseline itself slows; the comparison app/floor is what counts. Other work on the machine (load average ${
      Deno.loadavg().map((x) => x.toFixed(2)).join(" / ")
    }) also runs on these cores: figures from a busy machine **cannot be trusted** as absolute numbers.`
    : `**Not pinned** (${r.cores} cores, or no taskset): every process shares every core; **these figures cannot be trusted**.`;
  const wobbly = NAMES.filter((name) => !cap[name].consistent);
  const noisy = wobbly.length
    ? [
      `**A server held after failing** (${
        wobbly.join(" and ")
      } held at some N after failing at a smaller one): the machine's noise was larger than what this run measures, so its capacities **cannot be trusted**.`,
      "",
    ]
    : [];
  const cpu = { app: median(r.cpu.app), floor: median(r.cpu.floor), sdk: median(r.cpu.sdk) };
  const over = (x: number) => `${x >= cpu.floor ? "+" : "−"}${f1(Math.abs(x - cpu.floor))}`;
  const cpuRow = (label: string, name: "app" | "floor" | "sdk", extra: string) =>
    `| ${label} | **${f1(cpu[name])} ms** (${r.cpu[name].map(f1).join(" / ")}) | ${extra} |`;
  return [
    "## Chat: streams one core holds, CPU per 1,000 tokens",
    "",
    "`tests/bench/capacity_bench.ts`. Steady paced streams from a provider stand-in",
    `(\`chat_bench_child.ts stamped\`: the chunks of \`${FIXTURE}\`, 302, one every 10 ms ≈ 3 s a`,
    "stream, OpenAI Chat Completions framing): N closed-loop clients started spread over one",
    `stream's length, measured over ${WINDOW_S} s after that ramp. The stand-in stamps the first text`,
    "chunk of every stream with the time it wrote it, so each stream's first-token lag is read",
    "by the client itself; added p95 = p95 of that lag through the server − p95 straight from",
    "the stand-in at the same N, the mean of the direct probes just before and just after",
    "(direct, app, direct, floor, direct, …; the servers' order alternates by round).",
    `A coarse pass (N = ${
      COARSE_STEPS.slice(0, 3).join(", ")
    }, …, one round) brackets both capacities; then`,
    `${ROUNDS} rounds at each of ${FINE_POINTS} N across the bracket, and ${REFINE_POINTS} more N inside a server's`,
    "last N held and first failed when those are more than a tenth apart. A server holds N when the median of its",
    `rounds is ≤ ${TARGET_P95_MS} ms (a round with a failed or truncated stream counts as failing); its`,
    "capacity is where the medians cross the target, interpolated between the last N held and",
    "the first that failed, on the closest non-decreasing curve through them (a median that falls",
    "as N rises is noise: it is pooled with its neighbours). App: the real app (OpenAI Chat",
    "Completions adapter on the stand-in, in-memory KV, limits raised). Floor: the thinnest server",
    "over the same adapter (`chat_bench_child.ts peer`: parse, `doStream`, UI chunks out; no KV,",
    "checks, history, tools or engine).",
    trust,
    "",
    `| N | direct p95 | app: median added p95 (rounds) | floor: median added p95 (rounds) |`,
    "| ---: | --- | --- | --- |",
    ...ns.map((n) => `| ${n} | ${directs(n)} ms | ${cell("app", n)} | ${cell("floor", n)} |`),
    "",
    `Coarse pass, added p95: app ${coarseLine("app")}; floor ${coarseLine("floor")}.`,
    "",
    ...noisy,
    `**Capacity on one core: app ${capText("app")}, floor ${capText("floor")}: the app holds ${
      Number.isFinite(share) ? `${(share * 100).toFixed(0)}%` : "–"
    } of the floor** (goal ≥ 80%${
      Number.isFinite(share) ? (share >= 0.8 ? ": pass" : ": **FAIL**") : ""
    }).`,
    "",
    `CPU per 1,000 streamed tokens (the replay answers 1,000 text chunks; ${CPU_CLIENTS} steady`,
    "clients per server; the server process's user + system time from /proc over the window,",
    "per 1,000 text chunks the stand-in wrote (the app merges deltas that come close together, so",
    `its visitors read fewer events); one answer = 1,000 tokens, start to end; the median of`,
    `${ROUNDS} rounds, each in brackets):`,
    "",
    "| server | CPU per 1,000 tokens | over the floor |",
    "| --- | ---: | ---: |",
    cpuRow("app (POST /api/chat, our engine, KV)", "app", `${over(cpu.app)} ms`),
    cpuRow("floor (adapter `doStream` only)", "floor", "—"),
    cpuRow(
      "AI SDK loop (`streamText(...).toUIMessageStreamResponse()`, no KV)",
      "sdk",
      `${over(cpu.sdk)} ms`,
    ),
    "",
    `A 1,000-token answer costs the app ${f1(cpu.app)} ms of CPU: ${
      f1((cpu.app / DEPLOY_CPU_MS) * 100)
    }% of Deno Deploy's ${DEPLOY_CPU_MS} ms per request (lower tier, averaged).`,
  ].join("\n");
}

if (import.meta.main) console.log(await run());
