/**
 * One poll loop for many KV keys: every `pollMs` their values are read in batches of ten
 * (`kv.getMany`) instead of one `kv.get` and one timer per key. The stream log polls a key
 * per running stream (its stop request; a follower's head) every 100 ms, and a read per
 * key per tick cost the app a tenth of its CPU at 50 streams.
 */
import { isTransientKvError, KV_LIMITS } from "./kv.ts";

const GET_MANY_KEYS = KV_LIMITS.maxGetMany;

type Listener = (value: unknown) => void;

/** A shared poll loop; see {@linkcode createKeyPoller}. */
export interface KeyPoller {
  /**
   * Calls `onValue` with `key`'s value soon (a new key is read at once) and every `pollMs`
   * after that. The returned function stops it, and resolves once no read that could still
   * call `onValue` is in flight.
   */
  watch<T>(key: Deno.KvKey, onValue: (value: T | null) => void): () => Promise<void>;
}

/** Creates a poll loop over `kv`. Example: `createKeyPoller(kv, 100).watch(["k"], console.log)`. */
export function createKeyPoller(kv: Deno.Kv, pollMs: number): KeyPoller {
  const watched = new Set<{ key: Deno.KvKey; onValue: Listener }>();
  let fresh: typeof watched = new Set();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let soon: ReturnType<typeof setTimeout> | undefined;
  let broken = false;
  let reading: Promise<void> = Promise.resolve();

  const read = async (entries: typeof watched) => {
    const list = [...entries];
    for (let i = 0; i < list.length && !broken; i += GET_MANY_KEYS) {
      const group = list.slice(i, i + GET_MANY_KEYS);
      try {
        const values = await kv.getMany(group.map((w) => w.key));
        group.forEach((w, j) => watched.has(w) && w.onValue(values[j].value));
      } catch (error) {
        // A closed handle (a dead isolate) stops polling; a busy file retries next tick.
        if (!isTransientKvError(error)) broken = true;
      }
    }
  };
  // Reads run one after another, so a slow read delays the next tick instead of piling up.
  const run = (entries: typeof watched) => (reading = reading.then(() => read(entries)));
  const tick = () => {
    timer = undefined;
    run(watched).then(() => {
      if (watched.size && !broken && timer === undefined) timer = setTimeout(tick, pollMs);
    });
  };
  const readFresh = () => {
    soon = undefined;
    const entries = fresh;
    fresh = new Set();
    run(entries);
  };

  return {
    watch<T>(key: Deno.KvKey, onValue: (value: T | null) => void) {
      const entry = { key, onValue: onValue as Listener };
      watched.add(entry);
      fresh.add(entry);
      if (!broken) {
        soon ??= setTimeout(readFresh, 0);
        timer ??= setTimeout(tick, pollMs);
      }
      return async () => {
        watched.delete(entry);
        fresh.delete(entry);
        if (!watched.size) {
          clearTimeout(timer);
          clearTimeout(soon);
          timer = soon = undefined;
        }
        await reading;
      };
    },
  };
}
