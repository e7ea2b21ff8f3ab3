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
