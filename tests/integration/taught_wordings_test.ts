/**
 * The owner's wordings answered with a page (/admin/gaps, lib/search/owner_overlay.ts) on a real
 * site: the Python FAQ (tests/fixtures/pyfaq), pt and en. Every held-out question the search
 * ranks a wrong entry first for is pointed to its right entry, as an owner reading the gaps
 * would; then each of those finds its entry first, also typed with a typo, and no other question
 * (the dev set's, the held-out set's others, the off-topic sets') has another first passage
 * than before.
 */
import assert from "node:assert/strict";
import { type BeirDoc, parseJsonl, parseQrels } from "@/lib/search/beir.ts";
import { createOwnerAnswers } from "@/lib/store/owner_answers.ts";
import { withOwnerAnswers } from "@/lib/search/owner_overlay.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { beirSiteSearch } from "@/scripts/eval_answers.ts";
import { withTypo } from "@/lib/eval/typos.ts";

interface Question {
  _id: string;
  text: string;
}

const fixture = (path: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/${path}`, import.meta.url));
const docOf = (passageId: string) => passageId.split("#")[0];

/** The longest word of `text`. */
function longestWord(text: string): string {
  return (text.match(/\p{L}+/gu) ?? []).reduce((a, b) => (b.length > a.length ? b : a), "");
}

/** `text` with the middle letter of its longest word left out ("orignal"). */
function withDroppedLetter(text: string): string {
  const word = longestWord(text);
  const i = Math.floor(word.length / 2);
  return text.replace(word, word.slice(0, i) + word.slice(i + 1));
}

/** The document of each question's first passage, by question id. */
async function firstDocs(search: SiteSearch, questions: readonly Question[]) {
  const out = new Map<string, string | null>();
  for (const q of questions) {
    const [first] = (await search.search(q.text, { k: 5 })).passages;
    out.set(q._id, first ? docOf(first.id) : null);
  }
  return out;
}

for (const lang of ["pt", "en"] as const) {
  Deno.test(`taught wordings (${lang}): each finds its page; no other question changes`, async () => {
    const docs = parseJsonl<BeirDoc>(fixture(`pyfaq/corpus_${lang}.jsonl`), "corpus");
    const taughtSet = parseJsonl<Question>(fixture(`pyfaq/heldout_queries_${lang}.jsonl`), "q");
    const gold = parseQrels(fixture(`pyfaq/heldout_qrels_${lang}.tsv`));
    const others = [
      ...parseJsonl<Question>(fixture(`pyfaq/queries_${lang}.jsonl`), "dev"),
      ...parseJsonl<Question>(fixture(`offtopic/queries_${lang}.jsonl`), "off"),
      ...parseJsonl<Question>(fixture(`offtopic/heldout_queries_${lang}.jsonl`), "off"),
    ];
    const base = beirSiteSearch(docs, lang);
    const before = await firstDocs(base, [...taughtSet, ...others]);
    const kv = await Deno.openKv(":memory:");
    try {
      const answers = createOwnerAnswers(kv);
      const taught: Question[] = [];
      for (const q of taughtSet) {
        const right = [...gold.get(q._id)!.keys()][0];
        if (before.get(q._id) === right) {
          others.push(q);
          continue;
        }
        // The entry's passage, as the owner finds it on the gaps page by the entry's question
        // (two entries' questions can be alike: the owner sees which page was picked).
        const title = docs.find((d) => d._id === right)!.title!;
        const page = (await base.search(title, { k: 10 })).passages
          .find((p) => docOf(p.id) === right);
        assert.ok(page, title);
        await answers.save({
          question: q.text,
          answer: "",
          lang,
          target: { id: page.id, title: page.title, url: page.url! },
        });
        taught.push(q);
      }
      assert.ok(taught.length >= 10, `${taught.length} wordings taught`);
      const taughtSearch = withOwnerAnswers(base, answers);
      // Asked again in a hurry (two letters of the longest word swapped, lib/eval/typos.ts):
      // the wording is still the owner's, so the page still answers it.
      const hurried = taught.map((q) => ({ _id: `${q._id}-typo`, text: withTypo(q.text) }));
      // A letter dropped is read back only in a word of six letters or more ("tula" of "tupla"
      // could be another word): every wording whose longest word is that long.
      const dropped = taught.filter((q) => longestWord(q.text).length >= 6)
        .map((q) => ({ _id: `${q._id}-drop`, text: withDroppedLetter(q.text) }));
      assert.ok(dropped.length >= taught.length - 2, `${dropped.length} of ${taught.length}`);
      const after = await firstDocs(taughtSearch, [...taught, ...hurried, ...dropped, ...others]);
      for (const q of taught) {
        const right = [...gold.get(q._id)!.keys()][0];
        assert.equal(after.get(q._id), right, q.text);
        assert.equal(after.get(`${q._id}-typo`), right, withTypo(q.text));
        if (after.has(`${q._id}-drop`)) {
          assert.equal(after.get(`${q._id}-drop`), right, withDroppedLetter(q.text));
        }
      }
      const changed = others.filter((q) => after.get(q._id) !== before.get(q._id));
      assert.deepEqual(changed.map((q) => q.text), [], "questions whose first passage changed");
    } finally {
      kv.close();
    }
  });
}
