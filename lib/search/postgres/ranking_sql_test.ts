import assert from "node:assert/strict";
import { pgArray } from "./client.ts";
import { queryConfigs } from "./ranking_sql.ts";

Deno.test("pg ranking: the query's language picks the configuration, both without evidence", () => {
  assert.deepEqual(queryConfigs("como funciona o streaming?"), ["site_pt"]);
  assert.deepEqual(queryConfigs("how does the streaming work?"), ["site_en"]);
  assert.deepEqual(queryConfigs("streaming"), ["site_pt", "site_en"]);
});

Deno.test("pg client: array literals quote what Postgres would misread", () => {
  assert.equal(pgArray([0.1, 1]), "{0.1,1}");
  assert.equal(pgArray(["a", 'b"c', "d\\e", "x,y"]), '{"a","b\\"c","d\\\\e","x,y"}');
});
