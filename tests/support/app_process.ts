/**
 * The app as a child process (tests/support/serve_process.ts) on a KV file, for tests
 * that need several processes on one KV, or a process to kill -9.
 */
import { listeningPort } from "./listening.ts";

/** A running app process. */
export interface AppProcess {
  url: string;
  child: Deno.ChildProcess;
  /** Kills it at once (SIGKILL) and waits for it to end. */
  kill(): Promise<void>;
}

/** Starts the app on `kvPath` with `env` added (see serve_process.ts for what it reads). */
export async function spawnAppProcess(
  kvPath: string,
  env: Record<string, string | undefined> = {},
  { stderr = "null", onOutput, denyRead = [] }: {
    stderr?: "null" | "inherit";
    /** Files the process may not read, as a deployment that left them out. */
    denyRead?: string[];
    /** Receives everything the process prints on stdout. */
    onOutput?: (text: string) => void;
  } = {},
): Promise<AppProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...denyRead.map((path) => `--deny-read=${path}`),
      new URL("./serve_process.ts", import.meta.url).pathname,
    ],
    env: {
      DENO_KV_PATH: kvPath,
      SESSION_SECRET: "s".repeat(40),
      NO_COLOR: "1",
      ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<
        string,
        string
      >,
    },
    stdout: "piped",
    stderr,
  }).spawn();
  return {
    url: `http://127.0.0.1:${await listeningPort(child.stdout, onOutput)}`,
    child,
    async kill() {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await child.status;
    },
  };
}
