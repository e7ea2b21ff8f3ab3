import assert from "node:assert/strict";
import { expandQuery } from "./feedback.ts";

Deno.test("expandQuery adds the feedback passages' best new terms at a fraction of a query term", () => {
  const query = { pt: new Map([["prec", 1]]) };
  const out = expandQuery(
    query,
    [
      { lang: "pt", text: "preço da mensalidade mensalidade" },
      { lang: "en", text: "tuition tuition" },
    ],
    () => 1,
    { docs: 2, terms: 1, weight: 0.3 },
  );
  assert.deepEqual([...out.pt!], [["prec", 1], ["mensal", 0.3]]);
  // The caller's map is left alone and other languages' passages add nothing.
  assert.deepEqual([...query.pt], [["prec", 1]]);
  assert.equal(out.en, undefined);
});
