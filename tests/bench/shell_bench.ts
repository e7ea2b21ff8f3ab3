/**
 * Figures of the foundation: cold start of `deno task start` to the first 200
 * of `/`, p50/p95 of `GET /` over 1,000 sequential requests on loopback, and
 * the gzip bytes of all JS that `/` loads. The peer is a bare `Deno.serve`
 * answering a fixed HTML string, started and measured the same way in the
 * same run, so the figures say what our routing and rendering add.
 *
 * Then the cold-start rows, in repeated trials (ours and the peer
 * alternating): process start → first 200 of `/`, and process start → the first
 * `text-delta` of a first chat with the offline model (POST /api/chat sent as
 * soon as the port accepts), against a bare `Deno.serve` that streams one
 * text-delta event. Both run `deno run -A <entry>`, the command `deno task
 * start` runs, without the task runner in front.
 */
const ROOT = new URL("../../", import.meta.url);

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = l.addr as Deno.NetAddr;
  l.close();
  return port;
}

async function waitFor200(url: string, started: number, child: Deno.ChildProcess): Promise<number> {
  while (performance.now() - started < 30_000) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill();
  throw new Error(`${url} did not answer 200 within 30 s`);
}

async function measure(args: string[], env: Record<string, string>) {
  const port = await freePort();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { ...env, PORT: String(port), NO_COLOR: "1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}/`;
  try {
    const coldMs = await waitFor200(url, started, child);
    const times: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const t = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const html = await (await fetch(url)).text();
    // The JS `/` makes the browser load, fetched while the server still runs.
    const files = scriptUrls(html);
    let raw = 0;
    let gz = 0;
    for (const path of files) {
      const bytes = new Uint8Array(await (await fetch(new URL(path, url).href)).arrayBuffer());
      raw += bytes.length;
      gz += await gzipSize(bytes);
    }
    return { coldMs, p50: times[499], p95: times[949], files: files.length, raw, gz };
  } finally {
    child.kill();
    await child.status;
  }
}

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** The JS files `/` makes the browser load: modulepreloads and module scripts. */
function scriptUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/from "(\/_islands\/[^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<script[^>]* src="([^"]+)"/g)) urls.add(m[1]);
  return [...urls];
}

/** Trials per cold-start cell (each a fresh process; ours and the peer alternate). */
const TRIALS = 9;
const COLD_GOALS = { page: 100, firstToken: 300 };

const PEER_SOURCE = `const html = "<!DOCTYPE html><html><body><h1>Hello</h1></body></html>";
const sse = 'data: {"type":"start"}\\n\\ndata: {"type":"text-start","id":"t"}\\n\\n' +
  'data: {"type":"text-delta","id":"t","delta":"Hello"}\\n\\n';
Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")), onListen() {} },
  async (req) => {
    if (req.method !== "POST") {
      return new Response(html, { headers: { "content-type": "text/html" } });
    }
    await req.text();
    return new Response(sse + 'data: {"type":"finish"}\\n\\ndata: [DONE]\\n\\n',
      { headers: { "content-type": "text/event-stream" } });
  });`;

/** ms from spawning `args` until `probe` succeeds against it (retried every 2 ms), and its CPU ms. */
async function coldTrial(
  args: string[],
  env: Record<string, string>,
  probe: (base: string) => Promise<boolean>,
): Promise<{ ms: number; cpuMs: number }> {
  const port = freePort();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { ...env, PORT: String(port), NO_COLOR: "1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    while (performance.now() - started < 30_000) {
      try {
        if (await probe(`http://127.0.0.1:${port}`)) {
          return { ms: performance.now() - started, cpuMs: cpuMs(child.pid) };
        }
      } catch (error) {
        if (error instanceof ProbeError) throw error;
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    throw new Error(`${args.join(" ")}: no answer within 30 s`);
  } finally {
    child.kill();
    await child.status;
  }
}

/** CPU time (user + system, all threads) a process has used so far, from /proc; NaN elsewhere. */
function cpuMs(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // 1/100 s ticks
  } catch {
    return NaN;
  }
}

/** The server answered, but not as it should: no point retrying. */
class ProbeError extends Error {}

async function page200(base: string): Promise<boolean> {
  const res = await fetch(`${base}/`);
  await res.body?.cancel();
  return res.status === 200;
}

/** A first chat: true once its stream carries the first text-delta. */
async function firstToken(base: string): Promise<boolean> {
  const res = await fetch(`${base}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: "cold" + crypto.randomUUID().replaceAll("-", "").slice(0, 16),
      trigger: "submit-message",
      message: {
        id: "u1",
        role: "user",
        parts: [{ type: "text", text: "O que é o Dia da Harmonia?" }],
      },
    }),
  });
  if (res.status !== 200) {
    throw new ProbeError(`POST /api/chat answered ${res.status}: ${await res.text()}`);
  }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
    if (text.includes('"type":"text-delta"')) {
      await reader.cancel();
      return true;
    }
  }
  throw new ProbeError(`The first chat ended without a text-delta: ${text.slice(0, 300)}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

type Cell = { ms: number[]; cpu: number[] };

/** The cold-start rows: TRIALS fresh processes per cell, ours and the peer alternating. */
async function coldRows(peerFile: string): Promise<string[]> {
  const cell = (): Cell => ({ ms: [], cpu: [] });
  const cells = { oursPage: cell(), peerPage: cell(), oursToken: cell(), peerToken: cell() };
  const add = (c: Cell, t: { ms: number; cpuMs: number }) => {
    c.ms.push(t.ms);
    c.cpu.push(t.cpuMs);
  };
  const kvDir = await Deno.makeTempDir();
  const load0 = Deno.loadavg()[0];
  try {
    for (let i = 0; i < TRIALS; i++) {
      // A fresh KV file per process: a first visit on a fresh isolate.
      const kv = (tag: string) => ({ DENO_KV_PATH: `${kvDir}/${tag}${i}.sqlite` });
      add(cells.oursPage, await coldTrial(["run", "-A", "main.ts"], kv("p"), page200));
      add(cells.peerPage, await coldTrial(["run", "-A", peerFile], {}, page200));
      add(cells.oursToken, await coldTrial(["run", "-A", "main.ts"], kv("t"), firstToken));
      add(cells.peerToken, await coldTrial(["run", "-A", peerFile], {}, firstToken));
      console.error(
        `shell bench: cold trial ${i + 1}/${TRIALS}: / ${
          cells.oursPage.ms.at(-1)!.toFixed(0)
        } ms ` +
          `(peer ${cells.peerPage.ms.at(-1)!.toFixed(0)}), first token ${
            cells.oursToken.ms.at(-1)!.toFixed(0)
          } ms (peer ${cells.peerToken.ms.at(-1)!.toFixed(0)})`,
      );
    }
  } finally {
    await Deno.remove(kvDir, { recursive: true }).catch(() => {});
  }
  const load1 = Deno.loadavg()[0];
  const cores = navigator.hardwareConcurrency;
  const row = (what: string, ours: Cell, peer: Cell, goal: number) => {
    const m = median(ours.ms), p = median(peer.ms);
    return `| ${what} | **${m.toFixed(0)} ms** (best ${Math.min(...ours.ms).toFixed(0)}) | ${
      p.toFixed(0)
    } ms (best ${Math.min(...peer.ms).toFixed(0)}) | +${(m - p).toFixed(0)} ms | ${
      median(ours.cpu).toFixed(0)
    } ms / ${median(peer.cpu).toFixed(0)} ms | ≤ ${goal} ms: ${m <= goal ? "pass" : "**FAIL**"} |`;
  };
  const busy = Math.max(load0, load1) > cores;
  return [
    "### Cold start",
    "",
    `Process start → first answer, ${TRIALS} fresh processes per cell (ours and the peer`,
    "alternating, a fresh KV file each), median (and best) of the trials. Ours: `deno run -A",
    "main.ts` (what `deno task start` runs). Peer: a bare `Deno.serve` that answers `GET /` with",
    "a fixed page and `POST /api/chat` with one `text-delta` event. First token: POST /api/chat",
    "with a new question as the first request, sent as soon as the port accepts, offline model",
    "(no keys), until the first `text-delta` event. CPU: the server process's user + system time",
    "(all threads, /proc, 10 ms ticks) when the answer arrived, median. The chat stack (AI SDK,",
    "engine, agents) loads once the first response is out (lib/chat/lazy.ts); `/` never waits.",
    `Machine: ${cores} cores; load average ${load0.toFixed(2)} before these trials, ${
      load1.toFixed(2)
    } after${
      busy
        ? ` — more runnable work than cores, so these times include waiting for a core and **cannot be trusted** as absolute figures (the CPU column and the peer's row show how much)`
        : ""
    }.`,
    "",
    "| cold start → | ours | peer (bare Deno.serve) | ours − peer | CPU ours / peer | goal (ours) |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
    row("first 200 of `/`", cells.oursPage, cells.peerPage, COLD_GOALS.page),
    row(
      "first token of a first chat (offline model)",
      cells.oursToken,
      cells.peerToken,
      COLD_GOALS.firstToken,
    ),
    "",
  ];
}

/** Runs the figures and returns the markdown section. */
export async function run(): Promise<string> {
  const kvDir = await Deno.makeTempDir();
  const peerFile = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(peerFile, PEER_SOURCE);
  try {
    const ours = await measure(["task", "-q", "start"], { DENO_KV_PATH: `${kvDir}/kv.sqlite` });
    const peer = await measure(["run", "-A", peerFile], {});
    const cold = await coldRows(peerFile);
    return [
      "## Foundation: cold start, GET /, first-visit JS",
      "",
      "`deno task start` (ours) and a bare `Deno.serve` returning a fixed page (peer), each started",
      "as a child process; 1,000 sequential `GET /` over loopback after the first 200.",
      "",
      "| server | cold start → first 200 | GET / p50 | GET / p95 |",
      "| --- | --- | --- | --- |",
      `| ours (SSR shell, island props, KV-backed chat list) | ${ours.coldMs.toFixed(0)} ms | ${
        ours.p50.toFixed(3)
      } ms | ${ours.p95.toFixed(3)} ms |`,
      `| peer (bare Deno.serve) | ${peer.coldMs.toFixed(0)} ms | ${peer.p50.toFixed(3)} ms | ${
        peer.p95.toFixed(3)
      } ms |`,
      "",
      `JS loaded by \`/\`: ${ours.files} files, ${(ours.raw / 1024).toFixed(1)} KiB raw, **${
        (ours.gz / 1024).toFixed(1)
      } KiB gzip** ` +
      "(markdown, math and code highlighting load later, only when an answer needs them).",
      "",
      ...cold,
    ].join("\n");
  } finally {
    await Deno.remove(kvDir, { recursive: true }).catch(() => {});
    await Deno.remove(peerFile).catch(() => {});
  }
}

if (import.meta.main) console.log(await run());
