/**
 * Postgres for the tests of the Postgres search. `.ci/run` starts a throwaway cluster
 * (scripts/pg_cluster.sh) and exports SEARCH_DATABASE_URL_TEST; locally, start one the same
 * way (README, "Search on Postgres"). Without it these tests are skipped, and say so once.
 * Each test works in a schema of its own, dropped after, so tests may run in parallel.
 */
import { connectPg, type PgOptions, type Sql } from "@/lib/search/postgres/client.ts";
import { createSchema, dropSchema } from "@/lib/search/postgres/schema.ts";

/** The test database's URL, or null (the tests that need it are then ignored). */
export const PG_URL: string | null = Deno.env.get("SEARCH_DATABASE_URL_TEST")?.trim() || null;

if (!PG_URL) {
  console.warn(
    "SEARCH_DATABASE_URL_TEST is not set: the Postgres search tests are skipped " +
      "(scripts/pg_cluster.sh start <dir> prints a URL to set it to).",
  );
}

let vectorChecked: Promise<boolean> | null = null;

/** Whether the test server has pgvector (Debian 12 packages none: it is built from source). */
export function hasPgvector(): Promise<boolean> {
  return vectorChecked ??= (async () => {
    if (!PG_URL || Deno.env.get("PG_VECTOR_VIA_PGLITE") === "1") return false;
    const sql = connectPg(PG_URL, { max: 1 });
    try {
      const rows = await sql`select 1 from pg_available_extensions where name = 'vector'`;
      return rows.length > 0;
    } finally {
      await sql.end({ timeout: 1 });
    }
  })();
}

/**
 * A Postgres with pgvector for the vector tests where the test server has none: PGlite (real
 * Postgres in WASM, with its pgvector and unaccent builds) served on a loopback port over the
 * wire protocol by pglite-socket, so the very same client code talks to it. It serves one
 * connection at a time: pools on it take `max: 1`.
 */
export async function pgliteServer(): Promise<{ url: string; close(): Promise<void> }> {
  const [{ PGlite }, { vector }, { unaccent }, { PGLiteSocketServer }] = await Promise.all([
    // Full specifiers, not import-map names: `deno install` (also Deno Deploy's build) then
    // leaves these ~22 MB of test-only WASM out.
    // deno-lint-ignore no-import-prefix
    import("npm:@electric-sql/pglite@0.3.16"),
    // deno-lint-ignore no-import-prefix
    import("npm:@electric-sql/pglite@0.3.16/vector"),
    // deno-lint-ignore no-import-prefix
    import("npm:@electric-sql/pglite@0.3.16/contrib/unaccent"),
    // deno-lint-ignore no-import-prefix
    import("npm:@electric-sql/pglite-socket@0.0.22"),
  ]);
  const db = await PGlite.create({ extensions: { vector, unaccent } });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1" });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}

/** A pool on a fresh schema of its own; `drop()` removes the schema and closes the pool. */
export async function pgSchema(
  name: string,
  options: PgOptions = {},
): Promise<{ sql: Sql; schema: string; drop(): Promise<void> }> {
  const schema = `t_${name}_${crypto.randomUUID().slice(0, 8)}`.replace(/[^a-z0-9_]/g, "_");
  const sql = connectPg(PG_URL!, { max: 2, ...options, schema });
  await createSchema(sql, schema);
  return {
    sql,
    schema,
    async drop() {
      await dropSchema(sql, schema).catch(() => {});
      await sql.end({ timeout: 1 });
    },
  };
}

/** A cluster of the test's own (scripts/pg_cluster.sh), to stop and start under a running app. */
export interface OwnCluster {
  url: string;
  start(): Promise<void>;
  /** `immediate`: the server dies as in a crash, dropping every connection at once. */
  stop(): Promise<void>;
  /** The same, blocking: from a callback that cannot wait (an indexing run's progress). */
  stopSync(): void;
  remove(): Promise<void>;
}

async function clusterCommand(args: string[]): Promise<string> {
  const script = new URL("../../scripts/pg_cluster.sh", import.meta.url).pathname;
  const out = await new Deno.Command("bash", { args: [script, ...args], stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`pg_cluster.sh ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!;
}

/** A new cluster on a free port, started. */
export async function ownCluster(): Promise<OwnCluster> {
  const dir = await Deno.makeTempDir({ prefix: "pg-own-" });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const url = await clusterCommand(["start", dir, String(port)]);
  return {
    url,
    start: async () => void await clusterCommand(["start", dir, String(port)]),
    stop: async () => void await clusterCommand(["stop", dir, "immediate"]),
    stopSync() {
      const script = new URL("../../scripts/pg_cluster.sh", import.meta.url).pathname;
      const out = new Deno.Command("bash", { args: [script, "stop", dir, "immediate"] })
        .outputSync();
      if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    },
    async remove() {
      await clusterCommand(["stop", dir]).catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
