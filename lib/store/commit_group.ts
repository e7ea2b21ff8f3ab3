/**
 * Sets from many writers committed together: what is submitted before the current job's
 * microtasks run out (the stream log's writers all flush in one timer callback) goes out in as few atomic commits as KV's limits allow. A local KV spends about
 * 65 µs on a commit of two keys and about 10 µs a writer when fifty writers share one, and
 * the stream log commits a batch per running stream every 50 ms.
 *
 * Only unconditional sets are grouped: a write with checks keeps its own commit, since a
 * lost check must fail that write alone.
 */
import { commitWithRetry, KV_LIMITS } from "./kv.ts";

/** One key to set. `bytes`: the value's size, at least roughly. */
export interface GroupedSet {
  key: Deno.KvKey;
  value: unknown;
  bytes: number;
}

/** A commit shared by writers; see {@linkcode createCommitGroup}. */
export interface CommitGroup {
  /**
   * Sets `sets` (with `expireIn`) in a commit shared with the sets submitted before the
   * current microtasks run out; resolves when it landed, rejects if it failed.
   */
  set(sets: GroupedSet[], expireIn: number): Promise<void>;
}

/** Room left in a commit for keys and the values' wrappers. */
const KEY_ROOM = 256;
const COMMIT_BYTES = KV_LIMITS.maxCommitBytes - 20 * 1024;

interface Pending {
  sets: GroupedSet[];
  expireIn: number;
  bytes: number;
  done: (error?: unknown) => void;
}

/** Creates a commit group over `kv`. Example: `await createCommitGroup(kv).set([{ key, value, bytes: 4 }], 60_000)`. */
export function createCommitGroup(kv: Deno.Kv): CommitGroup {
  let pending: Pending[] = [];
  let queued = false;

  const flush = () => {
    queued = false;
    const all = pending;
    pending = [];
    let from = 0;
    while (from < all.length) {
      let to = from, mutations = 0, bytes = 0;
      while (
        to < all.length &&
        (to === from || (mutations + all[to].sets.length <= KV_LIMITS.maxMutations &&
          bytes + all[to].bytes <= COMMIT_BYTES))
      ) {
        mutations += all[to].sets.length;
        bytes += all[to].bytes;
        to++;
      }
      void commitTogether(kv, all.slice(from, to));
      from = to;
    }
  };

  return {
    set(sets, expireIn) {
      const bytes = sets.reduce((n, s) => n + s.bytes + KEY_ROOM, 0);
      return new Promise<void>((resolve, reject) => {
        pending.push({
          sets,
          expireIn,
          bytes,
          done: (e) => e === undefined ? resolve() : reject(e),
        });
        if (!queued) {
          queued = true;
          queueMicrotask(flush);
        }
      });
    },
  };
}

async function commitTogether(kv: Deno.Kv, group: Pending[]): Promise<void> {
  const op = kv.atomic();
  for (const p of group) {
    for (const s of p.sets) op.set(s.key, s.value, { expireIn: p.expireIn });
  }
  try {
    await commitWithRetry(op);
  } catch (error) {
    // One writer's bad value must not fail the others: each tries again on its own.
    if (group.length > 1) return void await Promise.all(group.map((p) => commitTogether(kv, [p])));
    return group[0].done(error ?? new Error("The KV commit failed."));
  }
  for (const p of group) p.done();
}
