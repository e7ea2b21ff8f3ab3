import assert from "node:assert/strict";
import { queryConfigs } from "./ranking_sql.ts";

Deno.test("pg ranking: the query's language picks the configuration, both without evidence", () => {
  assert.deepEqual(queryConfigs("como funciona o streaming?"), ["site_pt"]);
  assert.deepEqual(queryConfigs("how does the streaming work?"), ["site_en"]);
  assert.deepEqual(queryConfigs("streaming"), ["site_pt", "site_en"]);
});
