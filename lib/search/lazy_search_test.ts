import assert from "node:assert/strict";
import { lazySiteSearch } from "./lazy_search.ts";

const ASSET = new URL("../../build/search/index.bin", import.meta.url);

Deno.test("lazy search: says it is loading until ready, then answers like loadSiteSearch", async () => {
  const search = lazySiteSearch(() => ({ assetPath: ASSET }));
  assert.equal(search.status().status, "unavailable");
  assert.match((search.status() as { error: string }).error, /loading/);
  assert.equal(search.passage("x#y"), null);
  await search.ready();
  const status = search.status();
  assert.equal(status.status, "ok", JSON.stringify(status));
});

Deno.test("lazy search: the first search loads the engine; a missing index is reported as before", async () => {
  const found = lazySiteSearch(() => ({ assetPath: ASSET }));
  const { passages } = await found.search("Harmony Day", { k: 3 });
  assert.ok(passages.length > 0);
  assert.equal(found.passage(passages[0].id)?.title, passages[0].title);
  const missing = lazySiteSearch(() => ({ assetPath: new URL("file:///nonexistent/index.bin") }));
  await assert.rejects(() => missing.search("x"), /does not exist: run `deno task index`/);
  assert.match((missing.status() as { error: string }).error, /does not exist/);
});

Deno.test("lazy search: options that throw (an unreadable lexicon) reject ready() and every search", async () => {
  const search = lazySiteSearch(({ lexiconChoiceFromEnv }) => ({
    assetPath: ASSET,
    ...lexiconChoiceFromEnv({ SEARCH_LEXICON: "/nonexistent/lexicon.tsv" }),
  }));
  await assert.rejects(
    () => search.ready(),
    /SEARCH_LEXICON "\/nonexistent\/lexicon.tsv" cannot be read/,
  );
  await assert.rejects(() => search.search("x"), /cannot be read/);
});
