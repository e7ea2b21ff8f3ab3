import assert from "node:assert/strict";
import { selectBenches } from "../bench/run.ts";

const FILES = ["search_bench.ts", "capacity_bench.ts", "chat_bench.ts", "kv_bench.ts"];

Deno.test("deno task bench with no names runs every bench, in the given order", () => {
  assert.deepEqual(selectBenches(FILES, []), FILES);
});

Deno.test("deno task bench picks benches by the start of their file name", () => {
  assert.deepEqual(selectBenches(FILES, ["kv", "capacity"]), ["capacity_bench.ts", "kv_bench.ts"]);
  assert.deepEqual(selectBenches(FILES, ["c"]), ["capacity_bench.ts", "chat_bench.ts"]);
});

Deno.test("deno task bench refuses a name no bench has, listing the names it knows", () => {
  assert.throws(
    () => selectBenches(FILES, ["kv", "capcity"]),
    /No bench named "capcity": pick from search, capacity, chat, kv\./,
  );
});
