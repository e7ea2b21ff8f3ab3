/**
 * Writes made beside a response, never in its way (a content gap, a turn's token count), that
 * must still land before the app closes its KV or its process ends: closing waits for them.
 */
export interface BackgroundWrites {
  /** Tracks `write` until it settles; its failure is the writer's to log. */
  add(write: Promise<unknown>): void;
  /** Resolves once every tracked write has settled, or after `timeoutMs` at most. */
  settled(timeoutMs?: number): Promise<void>;
}

/** A tracker of writes in flight. */
export function createBackgroundWrites(): BackgroundWrites {
  const pending = new Set<Promise<unknown>>();
  return {
    add(write) {
      const tracked = write.catch(() => {}).finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    async settled(timeoutMs = 5_000) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => timer = setTimeout(resolve, timeoutMs));
      // New writes may start while earlier ones settle (a gap after a save): wait for them too.
      while (pending.size) {
        const settledAll = Promise.allSettled([...pending]).then(() => true);
        if (!await Promise.race([settledAll, late.then(() => false)])) break;
      }
      clearTimeout(timer);
    },
  };
}
