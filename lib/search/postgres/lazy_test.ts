import assert from "node:assert/strict";
import { lazyPgSearch } from "./lazy.ts";

Deno.test("pg lazy search: an owner's lexicon it cannot read stops ready() with the path and the fix", async () => {
  // No database is reached: the lexicon is read first.
  const search = lazyPgSearch("postgres://127.0.0.1:9/none", null, "/nonexistent/lexicon.tsv");
  await assert.rejects(
    search.ready(),
    /SEARCH_LEXICON "\/nonexistent\/lexicon\.tsv" cannot be read.*fix the path, unset it or set it to "off"/,
  );
});
