/**
 * What logging an answer to KV for resumable streams costs a visitor: time to the first
 * token of the same app with the log and with a log that writes nothing
 * (chat_bench_child.ts app / app-nolog), over the same replayed provider, in the same run,
 * turns interleaved so drift on a shared machine hits both alike.
 */
import { listeningPort } from "../support/listening.ts";

const CHILD = new URL("./chat_bench_child.ts", import.meta.url).pathname;
const FIXTURE = "openai-text.chunks.txt";

async function spawn(args: string[]) {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, ...args],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const port = await listeningPort(proc.stdout);
  return { url: `http://127.0.0.1:${port}`, kill: () => proc.kill("SIGKILL"), status: proc.status };
}

/** ms from the request to the first text delta; the rest of the stream is read to its end. */
async function ttft(url: string, i: number): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: `bench-${i}-${crypto.randomUUID().slice(0, 8)}`,
      model: "openai/gpt-4.1-mini",
      message: { id: `u${i}`, role: "user", parts: [{ type: "text", text: "Oi" }] },
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

function pct(values: number[], p: number): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `n` concurrent turns `rounds` times against each app, interleaved. */
async function measure(apps: { url: string }[], n: number, rounds: number): Promise<number[][]> {
  const samples: number[][] = apps.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (const [k, app] of apps.entries()) {
      const batch = await Promise.all(
        Array.from({ length: n }, (_, i) => ttft(app.url, r * n + i)),
      );
      samples[k].push(...batch);
    }
  }
  return samples;
}

/** The markdown section. */
export async function run(): Promise<string> {
  const replay = await spawn(["replay", FIXTURE]);
  const withLog = await spawn(["app", replay.url]);
  const without = await spawn(["app-nolog", replay.url]);
  try {
    await fetch(`${replay.url}/__pace?ms=10`, { method: "POST" }).then((r) => r.body?.cancel());
    await measure([withLog, without], 1, 5); // warm-up
    const rows: string[] = [];
    for (const [n, rounds] of [[1, 60], [50, 4]] as const) {
      const [a, b] = await measure([withLog, without], n, rounds);
      rows.push(
        `| ${n} | ${a.length} | ${pct(a, 50).toFixed(2)} / ${pct(a, 95).toFixed(2)} | ${
          pct(b, 50).toFixed(2)
        } / ${pct(b, 95).toFixed(2)} | ${(pct(a, 50) - pct(b, 50)).toFixed(2)} |`,
      );
    }
    return [
      "## Resumable streams: time to the first token with and without the KV log",
      "",
      "Same app, same replayed provider (openai-text fixture, a chunk every 10 ms), same run;",
      "one variant logs every chunk sent to KV (lib/store/stream_log.ts, opened when the question",
      "is saved), the other has a log that writes nothing. Turns interleaved per round.",
      "Source: tests/bench/stream_log_bench.ts.",
      "",
      "| concurrent turns | turns each | with log p50 / p95 (ms) | without p50 / p95 (ms) | p50 difference (ms) |",
      "| ---: | ---: | --- | --- | ---: |",
      ...rows,
    ].join("\n");
  } finally {
    for (const child of [withLog, without, replay]) child.kill();
  }
}

if (import.meta.main) console.log(await run());
