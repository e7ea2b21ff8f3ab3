/**
 * Migrations of several sites sharing one database at once: the extensions they need are the
 * database's, not a schema's, so two first migrations used to race on creating them.
 */
import assert from "node:assert/strict";
import { connectPg } from "./client.ts";
import { createSchema, migrate } from "./schema.ts";
import { PG_URL } from "../../../tests/support/pg.ts";

Deno.test({
  name: "pg schema: first migrations of eight schemas at once in a new database all succeed",
  ignore: !PG_URL,
  async fn() {
    const admin = connectPg(PG_URL!, { max: 1 });
    const db = `migrate_race_${Deno.pid}_${Date.now() % 100_000}`;
    await admin.unsafe(`create database ${db}`);
    const url = new URL(PG_URL!);
    url.pathname = `/${db}`;
    const pools = Array.from(
      { length: 8 },
      (_, i) => connectPg(url.href, { schema: `site_${i}`, max: 1, statementTimeoutMs: 30_000 }),
    );
    try {
      await Promise.all(pools.map((sql, i) => createSchema(sql, `site_${i}`)));
      const results = await Promise.allSettled(pools.map((sql) => migrate(sql)));
      const failed = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
      assert.deepEqual(failed.map((r) => String(r.reason)), []);
    } finally {
      await Promise.all(pools.map((sql) => sql.end({ timeout: 1 })));
      await admin.unsafe(`drop database if exists ${db} with (force)`);
      await admin.end({ timeout: 1 });
    }
  },
});
