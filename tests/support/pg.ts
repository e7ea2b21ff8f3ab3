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
    if (!PG_URL) return false;
    const sql = connectPg(PG_URL, { max: 1 });
    try {
      const rows = await sql`select 1 from pg_available_extensions where name = 'vector'`;
      return rows.length > 0;
    } finally {
      await sql.end({ timeout: 1 });
    }
  })();
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
