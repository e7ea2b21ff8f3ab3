/**
 * Cold start of the production entry as a host runs it: main.ts with read-only
 * permissions, APP_ENV=production (startup checks on) and KV in memory, from spawn to
 * the first 200 of `GET /`. The peer is a bare `Deno.serve` answering a fixed page with
 * the same flags, spawned and measured the same way, alternating with ours in one run.
 */
import { PROJECT_DIR, READ_ONLY_FLAGS } from "../support/production_process.ts";

const ROUNDS = 7;

const secret = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

/** Spawns `deno run <flags> <file>` and returns ms from spawn to the first 200 of `/`. */
async function coldStart(
  deno: string,
  file: string,
  env: Record<string, string>,
): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(deno, {
    args: ["run", ...READ_ONLY_FLAGS, file],
    cwd: PROJECT_DIR,
    env: { ...env, PORT: "0", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    let match: RegExpExecArray | null = null;
    while (!(match = /Listening on http:\/\/[^\s]*:(\d+)\//.exec(out))) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`${file} exited before listening: ${out}`);
      out += value;
    }
    reader.releaseLock();
    const url = `http://127.0.0.1:${match[1]}/`;
    while (true) {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.status === 200) return performance.now() - started;
    }
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel().catch(() => {});
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs the figures and returns the markdown section. */
export async function run(): Promise<string> {
  const peerFile = `${PROJECT_DIR}/.bench-peer-${crypto.randomUUID().slice(0, 8)}.ts`;
  await Deno.writeTextFile(
    peerFile,
    `Deno.serve({ port: Number(Deno.env.get("PORT")), onListen: ({ port }) =>
  console.log("Listening on http://127.0.0.1:" + port + "/") },
  () => new Response("<!DOCTYPE html><h1>Hello</h1>", { headers: { "content-type": "text/html" } }));`,
  );
  const env = {
    APP_ENV: "production",
    SESSION_SECRET: secret(),
    ADMIN_TOKEN: secret(),
    DENO_KV_PATH: ":memory:",
  };
  // DEPLOY_DENO: a second Deno binary (Deno Deploy's version) measured in the same rounds.
  const denos = [
    Deno.execPath(),
    ...(Deno.env.get("DEPLOY_DENO") ? [Deno.env.get("DEPLOY_DENO")!] : []),
  ];
  const ours: number[][] = denos.map(() => []);
  const peer: number[][] = denos.map(() => []);
  const versions = await Promise.all(
    denos.map(async (d) =>
      new TextDecoder().decode((await new Deno.Command(d, { args: ["--version"] }).output()).stdout)
        .split(" ")[1]
    ),
  );
  try {
    for (let i = 0; i < ROUNDS; i++) {
      for (const [j, deno] of denos.entries()) {
        ours[j].push(await coldStart(deno, `${PROJECT_DIR}/main.ts`, env));
        peer[j].push(await coldStart(deno, peerFile, {}));
      }
    }
  } finally {
    await Deno.remove(peerFile).catch(() => {});
  }
  const row = (name: string, xs: number[]) =>
    `| ${name} | ${median(xs).toFixed(0)} ms | ${Math.min(...xs).toFixed(0)} ms | ${
      Math.max(...xs).toFixed(0)
    } ms |`;
  return [
    "## Production entry: cold start",
    "",
    `\`main.ts\` as a locked-down host runs it (\`${
      READ_ONLY_FLAGS.join(" ").replace(PROJECT_DIR, "<project>")
    }\`, no write,`,
    "APP_ENV=production so the startup checks run, `DENO_KV_PATH=:memory:`), from spawn to",
    "the first 200 of `GET /`; the peer is a bare `Deno.serve` with the same flags.",
    `${ROUNDS} rounds, alternating; \`deno run -A tests/bench/production_start_bench.ts\``,
    "(`DEPLOY_DENO=<path to deno>` adds rows for a second Deno, e.g. Deno Deploy's version).",
    "",
    "| Deno | server | median | min | max |",
    "| --- | --- | --- | --- | --- |",
    ...denos.flatMap((_, j) => [
      row(`${versions[j]} | ours (production entry)`, ours[j]),
      row(`${versions[j]} | peer (bare Deno.serve)`, peer[j]),
    ]),
    "",
    ...denos.map((_, j) =>
      `Deno ${versions[j]}: ours minus peer (medians) **${
        (median(ours[j]) - median(peer[j])).toFixed(0)
      } ms**.`
    ),
    "",
  ].join("\n");
}

if (import.meta.main) console.log(await run());
