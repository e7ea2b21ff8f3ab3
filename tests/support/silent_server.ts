/**
 * A loopback TCP server that accepts connections, reads what the client sends and never
 * answers: the provider that "accepted the connection and never answered". Unlike an
 * HTTP server it sees every connection the client closes, whatever the request's size.
 *
 * @example
 * ```ts
 * const silent = startSilentServer();
 * fetch(`${silent.url}/v1/chat/completions`, { method: "POST", signal }); // never answered
 * await silent.waitForClose(0); // the client gave up and closed its connection
 * await silent.close();
 * ```
 */

/** A running silent server. */
export interface SilentServer {
  /** Base URL, e.g. "http://127.0.0.1:53211" (no trailing slash). */
  url: string;
  /** Bytes received on each connection, in order of arrival. */
  received: number[];
  /** Resolves when connection `index` (0-based) was closed by the client. */
  waitForClose(index: number, timeoutMs?: number): Promise<void>;
  /** Stops listening and closes the connections still open. */
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 with a free port. */
export function startSilentServer(): SilentServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const received: number[] = [];
  const closed: Array<{ promise: Promise<void>; resolve: () => void }> = [];
  const conns = new Set<Deno.Conn>();
  const slot = (index: number) => {
    while (closed.length <= index) {
      const { promise, resolve } = Promise.withResolvers<void>();
      closed.push({ promise, resolve });
    }
    return closed[index];
  };

  const serve = async (conn: Deno.Conn, index: number) => {
    conns.add(conn);
    const buffer = new Uint8Array(16 * 1024);
    try {
      while (true) {
        const n = await conn.read(buffer);
        if (n === null) break;
        received[index] += n;
      }
    } catch {
      // A reset or our own close(): the connection is over either way.
    }
    conns.delete(conn);
    slot(index).resolve();
    try {
      conn.close();
    } catch {
      // Already closed by close().
    }
  };

  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        const index = received.length;
        received.push(0);
        serve(conn, index);
      }
    } catch {
      // The listener was closed.
    }
  })();

  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    received,
    waitForClose(index, timeoutMs = 2000) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Connection ${index} was not closed within ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      return Promise.race([slot(index).promise, timeout]).finally(() => clearTimeout(timer));
    },
    async close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // Closed meanwhile.
        }
      }
      await accepting;
    },
  };
}
