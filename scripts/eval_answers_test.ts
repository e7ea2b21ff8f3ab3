import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { runAnswerEval } from "./eval_answers.ts";
import { PG_URL } from "@/tests/support/pg.ts";
import { tempDir } from "@/tests/support/temp.ts";

const COPY = {
  _id: "copy",
  title: "How do I copy a file?",
  text: "The shutil module has copyfile.",
};
const SORT = { _id: "sort", title: "How do I sort a list?", text: "Use sorted() or list.sort()." };

/** `docs` as a corpus file and "How do I copy a file?" with gold span `gold`, in `dir`. */
async function writeSet(dir: string, docs: object[], gold: string): Promise<string[]> {
  const corpus = `${dir}/corpus.jsonl`;
  const queries = `${dir}/queries.jsonl`;
  await Deno.writeTextFile(corpus, docs.map((d) => JSON.stringify(d)).join("\n"));
  await Deno.writeTextFile(
    queries,
    JSON.stringify({ _id: "q1", text: COPY.title, metadata: { answers: [gold] } }),
  );
  return ["--corpus", corpus, "--queries", queries, "--lang", "en"];
}

/** A corpus of two FAQ entries and one question with its gold span, in files. */
function files(): Promise<string[]> {
  return writeSet(tempDir(), [COPY, SORT], "shutil module has copyfile");
}

Deno.test("eval:answers answers through the embedded search", async () => {
  const summary = await runAnswerEval(await files());
  assert.equal(summary.gold_contained, 1);
});

Deno.test(
  { name: "eval:answers --postgres answers through the Postgres search", ignore: !PG_URL },
  async () => {
    const summary = await runAnswerEval([...await files(), "--postgres"], PG_URL!);
    assert.equal(summary.gold_contained, 1);
    assert.equal(summary.not_covered, 0);
  },
);

Deno.test("eval:answers --postgres without a database says what to set", async () => {
  await assert.rejects(runAnswerEval([...await files(), "--postgres"], ""), /SEARCH_DATABASE_URL/);
});

Deno.test("eval:answers --details makes its folder, and a path it cannot write fails before the run", async () => {
  const args = await files();
  const details = `${tempDir()}/new/folder/details.jsonl`;
  await runAnswerEval([...args, "--details", details]);
  assert.equal(readFileSync(details, "utf8").trim().split("\n").length, 1);
  const file = `${tempDir()}/a-file`;
  await Deno.writeTextFile(file, "");
  await assert.rejects(
    runAnswerEval([...args, "--details", `${file}/details.jsonl`]),
    /Cannot write --details ".*a-file\/details\.jsonl"/,
  );
});

/** `files()` with the pages in Portuguese as `--translations`, and a Portuguese question. */
async function bilingualFiles(): Promise<string[]> {
  const args = await files();
  const dir = tempDir();
  const translations = `${dir}/corpus_pt.jsonl`;
  await Deno.writeTextFile(
    translations,
    [
      { _id: "copy", title: "Como copio um arquivo?", text: "O módulo shutil tem copyfile." },
      { _id: "sort", title: "Como ordeno uma lista?", text: "Use sorted() ou list.sort()." },
    ].map((d) => JSON.stringify(d)).join("\n"),
  );
  const queries = `${dir}/queries_pt.jsonl`;
  await Deno.writeTextFile(
    queries,
    JSON.stringify({
      _id: "q1",
      text: "Como copio um arquivo?",
      metadata: { answers: ["módulo shutil tem copyfile"] },
    }),
  );
  return [
    ...args.slice(0, 2),
    "--queries",
    queries,
    "--lang",
    "en",
    "--translations",
    translations,
  ];
}

Deno.test("eval:answers --translations makes the site bilingual: a Portuguese question is answered from the Portuguese page", async () => {
  const asked = await bilingualFiles();
  // Over the English pages alone the question is translated and the English page quoted.
  assert.equal((await runAnswerEval(asked.slice(0, -2))).gold_contained, 0);
  const summary = await runAnswerEval(asked);
  assert.equal(summary.gold_contained, 1);
  assert.equal(summary.not_covered, 0);
});

Deno.test(
  { name: "eval:answers --translations --postgres indexes both languages", ignore: !PG_URL },
  async () => {
    const summary = await runAnswerEval([...await bilingualFiles(), "--postgres"], PG_URL!);
    assert.equal(summary.gold_contained, 1);
  },
);

Deno.test("eval:answers --translations refuses pages that translate no page of the corpus", async () => {
  const other = `${tempDir()}/other.jsonl`;
  await Deno.writeTextFile(other, JSON.stringify({ _id: "x", title: "Outra", text: "Nada." }));
  await assert.rejects(
    runAnswerEval([...await files(), "--translations", other]),
    /No document of --translations .* has the id of a --corpus document/,
  );
});

Deno.test("eval:answers counts a right entry offered as a related question, not quoted", async () => {
  const dir = tempDir();
  const mode = {
    _id: "mode",
    title: "How do I copy a file's permissions?",
    text: "Use shutil.copymode after the copy.",
  };
  const args = await writeSet(dir, [COPY, mode, SORT], "shutil.copymode");
  const qrels = `${dir}/qrels.tsv`;
  await Deno.writeTextFile(qrels, "query-id\tcorpus-id\tscore\nq1\tmode\t1\n");
  const details = `${dir}/details.jsonl`;
  const summary = await runAnswerEval([...args, "--qrels", qrels, "--details", details]);
  assert.equal(summary.gold_contained, 0, "the answer quotes the other entry");
  assert.equal(summary.answered_or_offered, 1, "the right one is offered under it");
  const line = JSON.parse(readFileSync(details, "utf8").trim());
  assert.deepEqual(line.related, ["mode"]);
});
