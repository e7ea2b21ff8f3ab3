/**
 * Figures of the foundation: cold start of `deno task start` to the first 200
 * of `/`, p50/p95 of `GET /` over 1,000 sequential requests on loopback, and
 * the gzip bytes of all JS that `/` loads. The peer is a bare `Deno.serve`
 * answering a fixed HTML string, started and measured the same way in the
 * same run, so the figures say what our routing and rendering add.
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

/** Runs the figures and returns the markdown section. */
export async function run(): Promise<string> {
  const kvDir = await Deno.makeTempDir();
  const peerFile = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(
    peerFile,
    `const html = "<!DOCTYPE html><html><body><h1>Hello</h1></body></html>";
Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")), onListen() {} },
  () => new Response(html, { headers: { "content-type": "text/html" } }));`,
  );
  try {
    const ours = await measure(["task", "-q", "start"], { DENO_KV_PATH: `${kvDir}/kv.sqlite` });
    const peer = await measure(["run", "-A", peerFile], {});
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
    ].join("\n");
  } finally {
    await Deno.remove(kvDir, { recursive: true }).catch(() => {});
    await Deno.remove(peerFile).catch(() => {});
  }
}

if (import.meta.main) console.log(await run());
