/**
 * The Postgres client of the search: the maintained `postgres` package (porsager), pooled the
 * way a Deno Deploy isolate needs (few connections, closed when idle, a bounded connect), with
 * a statement timeout on the server and a deadline in the process, so a query never hangs a
 * chat and a dead server is an error to report, not a crash.
 */
import postgres from "postgres";
import { SearchUnavailableError } from "../errors.ts";

/** The client's tagged-template type. */
export type Sql = postgres.Sql;
/** A transaction's tagged template (or the pool's). */
export type Tx = postgres.TransactionSql | postgres.Sql;

/** Settings of one pool. */
export interface PgOptions {
  /** Connections in the pool (default 3: an isolate serves few searches at once). */
  max?: number;
  /** Server-side statement timeout, ms (default 2,000). */
  statementTimeoutMs?: number;
  /** Seconds to reach the server before giving up (default 3). */
  connectTimeoutS?: number;
  /**
   * A schema of its own (tests, evals): the search's tables are created and read there, with
   * `public` after it for the extensions' types. Default: the server's search_path.
   */
  schema?: string;
}

/** A pool for `url`. Nothing connects until the first query. */
export function connectPg(url: string, options: PgOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 3,
    // Idle connections close: a quiet isolate holds no server slot.
    idle_timeout: 20,
    connect_timeout: options.connectTimeoutS ?? 3,
    // A few reconnects would otherwise keep one query waiting far past its deadline.
    max_lifetime: 60 * 30,
    onnotice: () => {},
    connection: {
      application_name: "site-assistant",
      statement_timeout: options.statementTimeoutMs ?? 2_000,
      // pgvector's HNSW scan returns at most ef_search rows (default 40): the dense list is 50
      // deep, as the embedded engine's. A placeholder setting where pgvector is absent.
      "hnsw.ef_search": 100,
      ...(options.schema ? { search_path: `${options.schema}, public` } : {}),
    },
  });
}

/**
 * A Postgres array literal of `values` (`{"a","b"}`), to pass with a `::text[]` or `::float4[]`
 * cast. The client serialises a JS array by the array types it reads from the server, and after
 * a reconnect to a restarted server it sent `0.1,0.2` (no braces) until it had read them again.
 */
export function pgArray(values: readonly (string | number)[]): string {
  const items = values.map((v) =>
    typeof v === "number" ? String(v) : `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`
  );
  return `{${items.join(",")}}`;
}

/** The message of a failure that says what to check. */
export function pgFailure(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const text = e?.message ?? String(error);
  if (e?.code === "ECONNREFUSED" || /ECONNREFUSED|connect/i.test(text)) {
    return `The search database cannot be reached (${text}): check SEARCH_DATABASE_URL and that the server runs.`;
  }
  if (e?.code === "57014") return "The search database took too long (statement timeout).";
  return `The search database failed: ${text}`;
}

/**
 * Runs `query` with a deadline: past `ms`, or when `signal` aborts, the statement is cancelled
 * on the server and a SearchUnavailableError is thrown. Every database failure becomes that
 * error too, so callers have one thing to catch.
 */
export async function withDeadline<T>(
  query: postgres.PendingQuery<postgres.Row[]> | Promise<T>,
  ms: number,
  signal?: AbortSignal,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const cancel = () => {
    const pending = query as { cancel?: () => void };
    try {
      pending.cancel?.();
    } catch { /* already done */ }
  };
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cancel();
      reject(new SearchUnavailableError(`The search database did not answer within ${ms} ms.`));
    }, ms);
    onAbort = () => {
      cancel();
      reject(signal!.reason ?? new DOMException("Aborted", "AbortError"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  // The losing promise's rejection is handled here, so it is never an unhandled rejection.
  const run = Promise.resolve(query as Promise<T>).catch((error) => {
    throw error instanceof SearchUnavailableError
      ? error
      : new SearchUnavailableError(pgFailure(error), { cause: error });
  });
  try {
    return await Promise.race([run, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    run.catch(() => {});
    stop.catch(() => {});
  }
}
