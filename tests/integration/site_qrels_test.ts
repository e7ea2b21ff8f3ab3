import assert from "node:assert/strict";
import { loadCorpus } from "@/lib/search/manifest.ts";
import { TRANSLATIONS } from "@/lib/corpus/pages.ts";
import { loadSiteSet, runSiteQueries } from "@/scripts/eval_site.ts";

Deno.test("the site retrieval set judges passages the index really has", async () => {
  const set = await loadSiteSet();
  const known = new Set(set.passageIds);
  assert.ok(set.queries.length >= 60, `only ${set.queries.length} questions`);
  for (const q of set.queries) {
    const rel = set.qrels.get(q._id);
    assert.ok(rel && [...rel.values()].includes(2), `${q._id} has no grade-2 passage`);
    for (const id of rel.keys()) assert.ok(known.has(id), `${q._id} judges unknown "${id}"`);
  }
});

Deno.test("cross-language questions are English and judge pages that exist only in Portuguese", async () => {
  const set = await loadSiteSet();
  const docs = await loadCorpus(new URL("../../corpus/", import.meta.url).pathname);
  // The Portuguese documents that have an English twin (the en-* pages translate them).
  const englishTopics = new Set([
    "como-funciona",
    "respostas-em-tempo-real",
    "busca-e-citacoes",
    "aprovacoes",
    "seus-dados",
  ]);
  assert.equal(docs.filter((d) => d.lang === "en").length, englishTopics.size);
  // The manifest declares the same pairs as the pages' language links (lib/corpus/pages.ts).
  const declared = Object.fromEntries(
    docs.filter((d) => d.translationOf).map((d) => [d.translationOf!, d.id]),
  );
  assert.deepEqual(declared, TRANSLATIONS);
  const cross = set.queries.filter((q) => q.metadata.set === "cross");
  assert.ok(cross.length >= 15);
  for (const q of cross) {
    assert.equal(q.metadata.lang, "en");
    for (const id of set.qrels.get(q._id)!.keys()) {
      const doc = id.split("#")[0];
      assert.ok(!englishTopics.has(doc) && !doc.startsWith("en-"), `${q._id} judges "${id}"`);
    }
  }
  // Without a lexicon an English question cannot reach a Portuguese-only page; through the
  // shipped one, which a bilingual site uses for its pages in one language only, most do.
  const off = runSiteQueries(set, { lexicon: null, defaultLexicon: null });
  assert.ok(off.filter((r) => r.set === "cross").every((r) => r.ndcg10 === 0));
  const found = runSiteQueries(set).filter((r) => r.set === "cross" && r.firstRelevant !== null);
  assert.ok(found.length >= cross.length * 0.75, `${found.length} of ${cross.length} found`);
});
