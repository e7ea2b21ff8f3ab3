/** What every writer and follower of one stream log shares. */
import type { KeyPoller } from "./key_poller.ts";
import type { CommitGroup } from "./commit_group.ts";
import type { FlushClock } from "@/lib/flush_clock.ts";

/** The stream log's KV handle and its options, resolved. */
export interface StreamKv {
  kv: Deno.Kv;
  clock: () => number;
  expireIn: number;
  flushBytes: number;
  /** One poll loop for the keys every writer and follower of this log watches; null: no polling. */
  poller: KeyPoller | null;
  /** The writers' batches, committed together. */
  group: CommitGroup;
  /** One flush clock for every writer, ticking every `flushMs`, so a tick's batches share commits. */
  flushes: FlushClock;
  flushMs: number;
  /**
   * Longest a chunk of a writer nobody follows waits. Such a writer flushes at the first tick
   * after its oldest chunk waited this long, so the writers' batches spread over the ticks: a
   * quiet clock of its own per writer cost a commit per batch (CPU per 1,000 tokens came back to
   * what 50 ms batches cost), and one quiet clock for all wrote a quarter second of every stream
   * in one commit, a pause every visitor's next chunk waited behind.
   */
  quietFlushMs: number;
}
