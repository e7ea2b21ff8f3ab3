/**
 * Watching stream log keys: `kv.watch` as the fast path, and the log's shared poll loop
 * beside it where `kv.watch` does not see every writer.
 */
import type { StreamKv } from "./stream_context.ts";

/**
 * Calls `onValue` with `key`'s value on every KV watch event and every poll of `s.poller`, if
 * any (starting at once). The returned function stops both and resolves when they have.
 */
export function watchKey<T>(
  s: StreamKv,
  key: Deno.KvKey,
  onValue: (value: T | null) => void,
): () => Promise<void> {
  return watchKeys(s, [key], (_, value) => onValue(value as T | null));
}

/** {@linkcode watchKey} over several keys in one watch: `onValue` gets the key's index. */
export function watchKeys(
  s: StreamKv,
  keys: Deno.KvKey[],
  onValue: (index: number, value: unknown) => void,
): () => Promise<void> {
  let stopped = false;
  const reader = s.kv.watch(keys).getReader();
  const watching = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || stopped) return;
        value.forEach((entry, i) => onValue(i, entry.value));
      }
    } catch { /* the handle closed: polling reports what it can */ }
  })();
  const unpolls = s.poller
    ? keys.map((key, i) => s.poller!.watch(key, (value) => stopped || onValue(i, value)))
    : [];
  return async () => {
    stopped = true;
    await reader.cancel().catch(() => {});
    await Promise.all([watching, ...unpolls.map((unpoll) => unpoll())]);
  };
}
