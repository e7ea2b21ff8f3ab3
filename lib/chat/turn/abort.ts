/**
 * A turn's abort: the visitor going away before the answer was delivered, or a stop
 * requested through the stream log (from any isolate), which aborts whatever the connection.
 */

/** The abort of one turn; `signal` reaches the provider's connection. */
export interface TurnAbort {
  readonly signal: AbortSignal;
  /** The visitor went away: aborts unless the answer is already being delivered. */
  stop(): void;
  /** An explicit stop (POST /api/chat/:id/stop), or nobody reads: aborts whatever the connection. */
  stopRequested(): void;
  /** From here on an abort of the visitor's connection is not the visitor stopping the answer. */
  delivered(): void;
}

/** The abort of a turn whose visitor's connection is `gone` (e.g. `request.signal`). */
export function turnAbort(gone: AbortSignal | undefined): TurnAbort {
  const controller = new AbortController();
  let delivered = false;
  const reason = () => new DOMException("The visitor stopped the answer.", "AbortError");
  const stop = () => {
    if (!delivered) controller.abort(reason());
  };
  // Deno 2.9 also fires request.signal after a response was fully sent: only an abort
  // before our stream finished is a real client disconnect.
  gone?.addEventListener("abort", stop, { once: true });
  // Gone while the turn was planned: the listener above never fires for a past abort.
  if (gone?.aborted) stop();
  return {
    signal: controller.signal,
    stop,
    stopRequested: () => controller.abort(reason()),
    delivered: () => void (delivered = true),
  };
}
