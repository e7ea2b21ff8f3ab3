/**
 * The production entry (main.ts) as a child process with the permissions a locked-down
 * host gives it: read the project only, no write, network, environment and the hostname
 * (`@vercel/oidc`, loaded by `ai`, reads it at import). The child gets only the
 * environment given here (plus what Deno needs to find its cache), so the parent's
 * variables cannot make it production by accident.
 */
const ROOT = new URL("../../", import.meta.url);

/** The project folder, without the trailing slash. */
export const PROJECT_DIR = decodeURIComponent(ROOT.pathname).replace(/\/$/, "");

/** The `deno run` permission flags of a read-only production run. */
export const READ_ONLY_FLAGS = [
  `--allow-read=${PROJECT_DIR}`,
  "--allow-net",
  "--allow-env",
  "--allow-sys=hostname",
];

/** A started production process. */
export interface ProductionProcess {
  child: Deno.ChildProcess;
  /** Resolves with the port once it prints "Listening on …", or rejects with its output. */
  port: Promise<number>;
  /** Everything it printed on stderr so far. */
  stderr(): string;
  /** Kills it (if still running) and waits for it to end. */
  stop(): Promise<Deno.CommandStatus>;
}

/**
 * What the child inherits so Deno finds its module cache and the build (ASSETS_DIR: where
 * `deno task test` put the bundles); nothing app-related.
 */
function baseEnv(): Record<string, string> {
  const keep = ["HOME", "PATH", "DENO_DIR", "XDG_CACHE_HOME", "DENO_TLS_CA_STORE", "ASSETS_DIR"];
  return Object.fromEntries(
    keep.flatMap((k) => Deno.env.get(k) !== undefined ? [[k, Deno.env.get(k)!]] : []),
  );
}

/** Collects a byte stream as text while it runs. */
function collect(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  onText: (all: string) => void,
): Promise<void> {
  let all = "";
  return stream.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write(text) {
        all += text;
        onText(all);
      },
    }),
  );
}

/** Starts main.ts on a free port with `env` and `flags` (default: read-only). */
export function spawnProductionEntry(
  env: Record<string, string>,
  flags: string[] = READ_ONLY_FLAGS,
): ProductionProcess {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, new URL("main.ts", ROOT).pathname],
    cwd: PROJECT_DIR,
    clearEnv: true,
    env: { ...baseEnv(), NO_COLOR: "1", PORT: "0", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  let err = "";
  let found: (port: number) => void;
  const port = new Promise<number>((resolve) => found = resolve);
  const stdoutDone = collect(child.stdout, (all) => {
    out = all;
    const match = /Listening on http:\/\/[^\s]*:(\d+)\//.exec(all);
    if (match) found(Number(match[1]));
  });
  const stderrDone = collect(child.stderr, (all) => err = all);
  const ended = Promise.all([child.status, stdoutDone, stderrDone]).then(([status]) => status);
  const listening = Promise.race([
    port,
    ended.then((status) => {
      throw new Error(`main.ts exited (code ${status.code}) before listening:\n${out}\n${err}`);
    }),
  ]);
  // Awaiting it still throws; a process that is meant to fail leaves it unawaited.
  listening.catch(() => {});
  return {
    child,
    port: listening,
    stderr: () => err,
    async stop() {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      return await ended;
    },
  };
}

/**
 * Waits for a process that should refuse to start to end by itself, and returns its exit
 * code and stderr. Throws (after killing it) if it starts listening instead.
 */
export async function exitOf(
  proc: ProductionProcess,
): Promise<{ code: number; stderr: string }> {
  const started = await Promise.race([proc.port.then(() => true, () => false), proc.child.status]);
  if (started === true) {
    await proc.stop();
    throw new Error(`main.ts started listening instead of refusing to start:\n${proc.stderr()}`);
  }
  const status = await proc.stop();
  return { code: status.code, stderr: proc.stderr() };
}
