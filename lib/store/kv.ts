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
  maxMutations: 1000,
  /** Total size of one atomic commit's mutations. */
  maxCommitBytes: 800 * 1024,
} as const;
