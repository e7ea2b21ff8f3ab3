/**
 * A Deno.Kv wrapped in a Proxy that counts what the app asks of it: keys read
 * by get / getMany, entries read by list, atomic commits with their checks and
 * mutations, and direct set / delete, each by the key's first element. Used by
 * tests/bench/kv_bench.ts and the store tests that count reads.
 */

/** Counters of one key prefix (the key's first element). */
export interface PrefixCounts {
  /** `get` calls (one key each). */
  get: number;
  /** `getMany` calls, and the keys they asked for. */
  getManyCalls: number;
  getManyKeys: number;
  /** `list` calls, and the entries they yielded. */
  listCalls: number;
  listEntries: number;
  /** Checks and mutations (set, delete, sum, min, max, mutate) inside atomic commits. */
  atomicChecks: number;
  atomicMutations: number;
  /** Direct `kv.set` / `kv.delete`. */
  directWrites: number;
}

/** Everything counted since the last reset. */
export interface KvCounts {
  byPrefix: Map<string, PrefixCounts>;
  /** Atomic commits attempted, and how many lost their checks. */
  commits: number;
  commitsFailed: number;
  /** Enqueues and watches (not used by the app today; counted so a change would show). */
  other: number;
}

/** A counting KV and its counters. */
export interface CountingKv {
  kv: Deno.Kv;
  counts: KvCounts;
  reset(): void;
}

function prefixOf(key: Deno.KvKey | undefined): string {
  const first = key?.[0];
  return first === undefined ? "(none)" : String(first);
}

function selectorPrefix(selector: Deno.KvListSelector): string {
  if ("prefix" in selector && selector.prefix.length) return prefixOf(selector.prefix);
  if ("start" in selector) return prefixOf(selector.start);
  if ("end" in selector) return prefixOf(selector.end);
  return "(all)";
}

/** Wraps `kv`; the wrapped object is what the app gets. */
export function countingKv(kv: Deno.Kv): CountingKv {
  const fresh = (): KvCounts => ({ byPrefix: new Map(), commits: 0, commitsFailed: 0, other: 0 });
  const self: CountingKv = {
    kv: undefined as unknown as Deno.Kv,
    counts: fresh(),
    reset() {
      self.counts = fresh();
    },
  };
  const at = (prefix: string): PrefixCounts => {
    let c = self.counts.byPrefix.get(prefix);
    if (!c) {
      c = {
        get: 0,
        getManyCalls: 0,
        getManyKeys: 0,
        listCalls: 0,
        listEntries: 0,
        atomicChecks: 0,
        atomicMutations: 0,
        directWrites: 0,
      };
      self.counts.byPrefix.set(prefix, c);
    }
    return c;
  };

  function wrapAtomic(op: Deno.AtomicOperation): Deno.AtomicOperation {
    const checks: string[] = [];
    const mutations: string[] = [];
    const proxy: Deno.AtomicOperation = new Proxy(op, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          switch (prop) {
            case "check":
              for (const c of args as Deno.AtomicCheck[]) checks.push(prefixOf(c.key));
              break;
            case "mutate":
              for (const m of args as Deno.KvMutation[]) mutations.push(prefixOf(m.key));
              break;
            case "set":
            case "delete":
            case "sum":
            case "min":
            case "max":
              mutations.push(prefixOf(args[0] as Deno.KvKey));
              break;
            case "enqueue":
              self.counts.other++;
              break;
            case "commit": {
              self.counts.commits++;
              for (const p of checks) at(p).atomicChecks++;
              for (const p of mutations) at(p).atomicMutations++;
              return (value as () => Promise<Deno.KvCommitResult | Deno.KvCommitError>).call(
                target,
              ).then((res) => {
                if (!res.ok) self.counts.commitsFailed++;
                return res;
              });
            }
          }
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          // Chaining methods return the operation itself: keep chaining through the proxy.
          return out === target ? proxy : out;
        };
      },
    });
    return proxy;
  }

  function wrapList<T>(iter: Deno.KvListIterator<T>, counts: PrefixCounts): Deno.KvListIterator<T> {
    const proxy: Deno.KvListIterator<T> = new Proxy(iter, {
      get(target, prop) {
        if (prop === Symbol.asyncIterator) return () => proxy;
        if (prop === "next") {
          return async () => {
            const res = await target.next();
            if (!res.done) counts.listEntries++;
            return res;
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    return proxy;
  }

  self.kv = new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      const fn = value as (...a: unknown[]) => unknown;
      switch (prop) {
        case "get":
          return (key: Deno.KvKey, ...rest: unknown[]) => {
            at(prefixOf(key)).get++;
            return fn.call(target, key, ...rest);
          };
        case "getMany":
          return (keys: Deno.KvKey[], ...rest: unknown[]) => {
            const c = at(prefixOf(keys[0]));
            c.getManyCalls++;
            c.getManyKeys += keys.length;
            return fn.call(target, keys, ...rest);
          };
        case "list":
          return (selector: Deno.KvListSelector, ...rest: unknown[]) => {
            const c = at(selectorPrefix(selector));
            c.listCalls++;
            return wrapList(fn.call(target, selector, ...rest) as Deno.KvListIterator<unknown>, c);
          };
        case "atomic":
          return () => wrapAtomic(fn.call(target) as Deno.AtomicOperation);
        case "set":
        case "delete":
          return (key: Deno.KvKey, ...rest: unknown[]) => {
            at(prefixOf(key)).directWrites++;
            return fn.call(target, key, ...rest);
          };
        case "enqueue":
        case "watch":
        case "listenQueue":
          return (...args: unknown[]) => {
            self.counts.other++;
            return fn.apply(target, args);
          };
        default:
          return fn.bind(target);
      }
    },
  });
  return self;
}

/** KV round trips that read (`get`, `getMany`, `list` calls) in `counts`, all prefixes. */
export function readCalls(counts: KvCounts): number {
  let n = 0;
  for (const c of counts.byPrefix.values()) n += c.get + c.getManyCalls + c.listCalls;
  return n;
}
