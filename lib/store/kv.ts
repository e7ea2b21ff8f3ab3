/**
 * The one place that opens Deno KV. `DENO_KV_PATH` chooses the location:
 * `:memory:` in tests; unset on Deno Deploy (the managed KV); unset locally
 * means `.data/kv.sqlite` in the project, so dev and start share one history.
 */

/** Opens KV at `path`, or the default for where the app runs. */
export async function openKv(path?: string): Promise<Deno.Kv> {
  if (path) return await Deno.openKv(path);
  if (Deno.env.get("DENO_DEPLOYMENT_ID")) return await Deno.openKv();
  const dir = new URL("../../.data/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  return await Deno.openKv(new URL("kv.sqlite", dir).pathname);
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
