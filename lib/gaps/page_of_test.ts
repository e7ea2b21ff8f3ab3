import assert from "node:assert/strict";
import { pageOf } from "./page_of.ts";

Deno.test("pageOf: slices, counts, and reads a page past the end as the last", () => {
  const items = Array.from({ length: 65 }, (_, i) => i);
  assert.deepEqual(pageOf(items, 1, 30), {
    items: items.slice(0, 30),
    page: 1,
    pages: 3,
    first: 1,
    total: 65,
  });
  assert.deepEqual(pageOf(items, 3, 30).items, [60, 61, 62, 63, 64]);
  assert.equal(pageOf(items, 3, 30).first, 61);
  // The list shrank (groups answered) since the link was made.
  assert.equal(pageOf(items, 9, 30).page, 3);
  assert.deepEqual(pageOf([], 2, 30), { items: [], page: 1, pages: 1, first: 0, total: 0 });
  assert.equal(pageOf(items.slice(0, 30), 2, 30).pages, 1);
});
