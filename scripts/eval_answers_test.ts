import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { runAnswerEval } from "./eval_answers.ts";
import { PG_URL } from "@/tests/support/pg.ts";
import { tempDir } from "@/tests/support/temp.ts";

/** A corpus of two FAQ entries and one question with its gold span, in files. */
async function files(): Promise<string[]> {
  const dir = tempDir();
  const corpus = `${dir}/corpus.jsonl`;
  const queries = `${dir}/queries.jsonl`;
  await Deno.writeTextFile(
    corpus,
    [
      { _id: "copy", title: "How do I copy a file?", text: "The shutil module has copyfile." },
      { _id: "sort", title: "How do I sort a list?", text: "Use sorted() or list.sort()." },
    ].map((d) => JSON.stringify(d)).join("\n"),
  );
  await Deno.writeTextFile(
    queries,
    JSON.stringify({
      _id: "q1",
      text: "How do I copy a file?",
      metadata: { answers: ["shutil module has copyfile"] },
    }),
  );
  return ["--corpus", corpus, "--queries", queries, "--lang", "en"];
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
