/**
 * Temporary folders and KV files for tests, removed when the test module ends (the `unload`
 * event, which `deno test` fires per module), so a run of the suite leaves nothing in the
 * system's temp folder: a KV file's SQLite `-shm` and `-wal` companions included, which
 * removing the `.sqlite` file alone leaves behind.
 */
const made: string[] = [];

function track(path: string): string {
  if (!made.length) globalThis.addEventListener("unload", removeAll);
  made.push(path);
  return path;
}

function removeAll(): void {
  globalThis.removeEventListener("unload", removeAll);
  for (const path of made.splice(0)) {
    for (const file of [path, `${path}-shm`, `${path}-wal`]) {
      try {
        Deno.removeSync(file, { recursive: true });
      } catch {
        // Removed by the test already, or never made.
      }
    }
  }
}

/** A new empty folder, removed with everything in it when the test module ends. */
export function tempDir(options?: Deno.MakeTempOptions): string {
  return track(Deno.makeTempDirSync(options));
}

/** A path for a Deno KV file, removed with its SQLite companions when the test module ends. */
export function tempKvPath(): string {
  return track(Deno.makeTempFileSync({ suffix: ".sqlite" }));
}
