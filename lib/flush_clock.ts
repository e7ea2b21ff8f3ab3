/**
 * One timer for many buffers: each buffer asks to be flushed at the next tick, and a tick
 * runs every flush that is due. A timer per buffer cost a timer object and a timer-list
 * insert for each of them; one clock also lands the flushes of a tick together, so the
 * work they start (KV commits, socket writes) is done in one wake-up of the event loop.
 */

/** Calls the flushes due every `flushMs` (one timer for all, running while any is due). */
export interface FlushClock {
  /** `flush` runs at the next tick, at most `flushMs` from now (once, however often it is asked). */
  due(flush: () => void): void;
  /** `flush` no longer runs at the next tick; the timer stops when nothing is due. */
  cancel(flush: () => void): void;
}

/** A clock ticking every `flushMs` while any flush is due. */
export function createFlushClock(flushMs: number): FlushClock {
  const due = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    timer = undefined;
    const flushes = [...due];
    due.clear();
    for (const flush of flushes) flush();
  };
  return {
    due(flush) {
      due.add(flush);
      timer ??= setTimeout(tick, flushMs);
    },
    cancel(flush) {
      due.delete(flush);
      if (due.size === 0 && timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
    },
  };
}
