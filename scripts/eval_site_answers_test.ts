import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { runSiteAnswerEval } from "./eval_site_answers.ts";
import { loadSiteSet } from "./eval_site.ts";
import { tempDir } from "@/tests/support/temp.ts";

interface Detail {
  id: string;
  set: string;
  answer: string;
  cited: string[];
  not_covered: boolean;
  why?: string;
}

Deno.test("eval:answers --site asks our site's judged questions and judges them by passage", async () => {
  const details = `${tempDir()}/details.jsonl`;
  const summary = await runSiteAnswerEval(["--site", "--details", details]) as Record<
    string,
    { questions: number; answered: number; not_covered: number }
  >;
  const set = await loadSiteSet();
  const lines = readFileSync(details, "utf8").trim().split("\n").map((l) =>
    JSON.parse(l) as Detail
  );
  for (const name of ["pt", "en", "cross"]) {
    const asked = set.queries.filter((q) => q.metadata.set === name).length;
    assert.equal(summary[name].questions, asked);
  }
  assert.equal(summary.all.questions, set.queries.length);
  // "Answered" is citing a passage judged relevant to the question, read from the answer's [N].
  for (const line of lines.filter((l) => l.why === "answered")) {
    const judged = set.qrels.get(line.id)!;
    assert.ok(line.cited.some((id) => (judged.get(id) ?? 0) > 0), JSON.stringify(line));
    assert.match(line.answer, /\[\d+\]/);
  }
  // A question our FAQ answers word for word, in each interface language.
  const byId = new Map(lines.map((l) => [l.id, l]));
  assert.equal(byId.get("p03")?.why, "answered", JSON.stringify(byId.get("p03")));
  assert.ok(summary.all.answered > 0 && summary.all.answered <= 1);
  // The off-topic questions of both languages, told "not covered" in theirs.
  const off = lines.filter((l) => l.set.startsWith("offtopic-"));
  assert.equal(off.length, (summary.offtopic as unknown as { questions: number }).questions);
  const pizza = off.find((l) => l.set === "offtopic-pt" && l.not_covered);
  assert.match(pizza!.answer, /^O site não tem informação/);
  const english = off.find((l) => l.set === "offtopic-en" && l.not_covered);
  assert.match(english!.answer, /^The site does not cover/);
});

Deno.test("eval:answers --site takes an owner's questions, judged or not", async () => {
  const dir = tempDir();
  await Deno.writeTextFile(
    `${dir}/questions.jsonl`,
    [
      { _id: "apagar", text: "Como apago minhas conversas?" },
      { _id: "keys", text: "Does it work without an API key?", metadata: { set: "owner-en" } },
    ].map((q) => JSON.stringify(q)).join("\n"),
  );
  const details = `${dir}/out/details.jsonl`;
  const plain = await runSiteAnswerEval([
    "--site",
    "--queries",
    `${dir}/questions.jsonl`,
    "--details",
    details,
  ]) as Record<string, Record<string, unknown>>;
  // Unjudged: what was refused and how long the answers are, no "answered" share.
  assert.deepEqual(Object.keys(plain.questions), ["questions", "not_covered", "mean_words"]);
  assert.equal(plain["owner-en"].questions, 1);
  const lines = readFileSync(details, "utf8").trim().split("\n").map((l) =>
    JSON.parse(l) as Detail
  );
  const apagar = lines.find((l) => l.id === "apagar")!;
  // Its language read from its words: asked under the Portuguese interface, answered in it.
  assert.match(apagar.answer, /^“Use a opção "apagar meus dados"/);
  // Judged by the passage it cites, as --details names it.
  await Deno.writeTextFile(
    `${dir}/judged.tsv`,
    `query-id\tcorpus-id\tscore\napagar\t${apagar.cited[0]}\t1\nkeys\tnone#such\t1\n`,
  );
  const judged = await runSiteAnswerEval([
    "--site",
    "--queries",
    `${dir}/questions.jsonl`,
    "--qrels",
    `${dir}/judged.tsv`,
  ]) as Record<string, Record<string, unknown>>;
  assert.equal(judged.questions.answered, 1);
  assert.equal(judged["owner-en"].answered, 0);
  assert.equal(judged.all.answered, 0.5);
  await assert.rejects(
    runSiteAnswerEval(["--site", "--qrels", `${dir}/judged.tsv`]),
    /--qrels judges the questions of --queries/,
  );
});
