/**
 * The one place that opens Deno KV. `DENO_KV_PATH` chooses the location:
 * `:memory:` in tests; unset on Deno Deploy (the KV database assigned to the app); unset
 * locally means `.data/kv.sqlite` in the project, so dev and start share one history.
 * A KV Connect URL (`https://…`: a self-hosted `denokv` server or a Deno Deploy KV
 * database) shares one store between machines; Deno reads its token from
 * `DENO_KV_ACCESS_TOKEN` itself.
 */

/** Hosts a KV Connect URL may reach over plain http (the token would travel in clear). */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether `DENO_KV_PATH` names a KV Connect server rather than a file. */
export function isKvConnectUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

/**
 * The problem with a KV Connect URL and its token, or null when Deno can open it:
 * https (http only on loopback) and `DENO_KV_ACCESS_TOKEN` set.
 */
export function kvConnectProblem(path: string, token: string | undefined): string | null {
  let url: URL;
  try {
    url = new URL(path);
  } catch {
    return `DENO_KV_PATH "${path}" is not a valid URL. Write the KV Connect URL of a denokv server or a Deno Deploy KV database.`;
  }
  if (url.protocol === "http:" && !LOOPBACK.has(url.hostname)) {
    return `DENO_KV_PATH "${url.origin}" uses http to a remote host, which would send DENO_KV_ACCESS_TOKEN in clear. Put the denokv server behind https.`;
  }
  if (!token) {
    return `DENO_KV_PATH is the KV Connect URL "${url.origin}${url.pathname}" but DENO_KV_ACCESS_TOKEN is not set. Set it to the denokv server's --access-token or a Deno Deploy access token.`;
  }
  return null;
}

/** Whether an error means "this process may not write there". */
function isWriteRefused(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied;
}

/** Opens a KV file, explaining a refused write (a read-only run must use `:memory:` or a URL). */
async function openKvFile(path: string, mkdir?: URL): Promise<Deno.Kv> {
  try {
    if (mkdir) await Deno.mkdir(mkdir, { recursive: true });
    return await Deno.openKv(path);
  } catch (error) {
    if (!isWriteRefused(error)) throw error;
    throw new Error(
      `Cannot write the KV file "${path}" (${
        (error as Error).message
      }). Without write access set DENO_KV_PATH to ":memory:" (nothing kept) or to a KV Connect URL, or allow writing that file.`,
    );
  }
}

/** Opens KV at `path`, or the default for where the app runs. */
export async function openKv(path?: string): Promise<Deno.Kv> {
  if (path && isKvConnectUrl(path)) {
    const problem = kvConnectProblem(path, Deno.env.get("DENO_KV_ACCESS_TOKEN"));
    if (problem) throw new Error(problem);
    return await Deno.openKv(path);
  }
  if (path === ":memory:") return await Deno.openKv(path);
  if (path) return await openKvFile(path);
  if (Deno.env.get("DENO_DEPLOYMENT_ID")) return await Deno.openKv();
  const dir = new URL("../../.data/", import.meta.url);
  return await openKvFile(new URL("kv.sqlite", dir).pathname, dir);
}

/**
 * Whether `kv.watch` on the KV that {@linkcode openKv} opens for `path` reports the writes of
 * every process: true on Deno Deploy, over KV Connect and for `:memory:` (no other process
 * can write it); false for a local SQLite file, which another process on the machine (a
 * second `deno task start`) may write unseen, so its watchers must also poll.
 */
export function kvWatchSeesEveryWriter(path?: string): boolean {
  if (path) return isKvConnectUrl(path) || path === ":memory:";
  return Boolean(Deno.env.get("DENO_DEPLOYMENT_ID"));
}

/** Deno KV's documented limits, which every write here respects. */
export const KV_LIMITS = {
  /** Largest value; we split larger payloads below this with room for the wrapper. */
  maxValueBytes: 64 * 1024,
  chunkBytes: 60 * 1024,
  maxChecks: 10,
  /** Keys one `kv.getMany` call accepts. */
  maxGetMany: 10,
  maxMutations: 1000,
  /** Total size of one atomic commit's mutations. */
  maxCommitBytes: 800 * 1024,
} as const;

/**
 * Whether a KV error is worth retrying: a local SQLite file shared by several
 * processes answers "database is locked" while another one writes.
 */
export function isTransientKvError(error: unknown): boolean {
  return error instanceof Error && /database is locked|busy/i.test(error.message);
}

/** Commits `op`, retrying transient lock errors; a lost check still returns `{ ok: false }`. */
export async function commitWithRetry(
  op: Deno.AtomicOperation,
  attempts = 8,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  for (let i = 0;; i++) {
    try {
      return await op.commit();
    } catch (error) {
      if (!isTransientKvError(error) || i >= attempts) throw error;
      await new Promise((r) => setTimeout(r, 5 * 2 ** Math.min(i, 5) * Math.random() + 2));
    }
  }
}
