/**
 * The questions an owner dismisses on /admin/gaps (lib/search/dismissed.ts) on a real site: the
 * Python FAQ (tests/fixtures/pyfaq), pt and en. Every off-topic question (tests/fixtures/offtopic,
 * dev and held-out) that the search still finds a passage for past the "not covered" gate is
 * dismissed, as an owner reading the gaps would; then each finds nothing, also typed with a typo,
 * and no covered question (the dev and held-out sets) nor any other off-topic one changes.
 */
import assert from "node:assert/strict";
import { type BeirDoc, parseJsonl } from "@/lib/search/beir.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { withDismissedQuestions } from "@/lib/search/dismissed.ts";
import { dismissalsVersion, dismissGap, listDismissals } from "@/lib/store/gap_dismissals.ts";
import { MIN_MATCH } from "@/lib/models/extractive.ts";
import { beirSiteSearch } from "@/scripts/eval_answers.ts";
import { withTypo } from "@/lib/eval/typos.ts";

interface Question {
  _id: string;
  text: string;
}

const fixture = (path: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/${path}`, import.meta.url));

/** Each question's passages, as ids, by question id. */
async function passagesOf(search: SiteSearch, questions: readonly Question[]) {
  const out = new Map<string, string[]>();
  for (const q of questions) {
    out.set(q._id, (await search.search(q.text, { k: 5 })).passages.map((p) => p.id));
  }
  return out;
}

for (const lang of ["pt", "en"] as const) {
  Deno.test(`dismissed questions (${lang}): each finds nothing; no other question changes`, async () => {
    const docs = parseJsonl<BeirDoc>(fixture(`pyfaq/corpus_${lang}.jsonl`), "corpus");
    const offTopic = [
      ...parseJsonl<Question>(fixture(`offtopic/queries_${lang}.jsonl`), "off"),
      ...parseJsonl<Question>(fixture(`offtopic/heldout_queries_${lang}.jsonl`), "off"),
    ];
    const covered = [
      ...parseJsonl<Question>(fixture(`pyfaq/queries_${lang}.jsonl`), "dev"),
      ...parseJsonl<Question>(fixture(`pyfaq/heldout_queries_${lang}.jsonl`), "held-out"),
    ];
    const base = beirSiteSearch(docs, lang);
    const kv = await Deno.openKv(":memory:");
    try {
      // The off-topic questions the gate lets through: the ones an owner sees answered wrongly.
      const passing: Question[] = [];
      const others: Question[] = [...covered];
      for (const q of offTopic) {
        const [first] = (await base.search(q.text, { k: 5 })).passages;
        if ((first?.match ?? 0) >= MIN_MATCH) passing.push(q);
        else others.push(q);
      }
      assert.ok(passing.length >= 3, `${passing.length} off-topic questions pass the gate`);
      for (const q of passing) await dismissGap(kv, { question: q.text, lang }, 1);
      const search = withDismissedQuestions(base, {
        version: () => dismissalsVersion(kv),
        list: () => listDismissals(kv),
      });
      const hurried = passing.map((q) => ({ _id: `${q._id}-typo`, text: withTypo(q.text) }));
      const before = await passagesOf(base, others);
      const after = await passagesOf(search, [...passing, ...hurried, ...others]);
      for (const q of [...passing, ...hurried]) assert.deepEqual(after.get(q._id), [], q.text);
      const changed = others.filter((q) =>
        JSON.stringify(after.get(q._id)) !== JSON.stringify(before.get(q._id))
      );
      assert.deepEqual(changed.map((q) => q.text), [], "questions whose passages changed");
    } finally {
      kv.close();
    }
  });
}
