import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseJsonl } from "@/lib/search/beir.ts";
import { importedCorpus, main, MARKUPS } from "./eval_markup.ts";
import { tempDir } from "@/tests/support/temp.ts";

Deno.test("eval:markup: every markup's pages import as one FAQ entry per question", async () => {
  const file = "tests/fixtures/pyfaq/corpus_en.jsonl";
  // Two FAQ parts, so that the tabs markup has two tabs.
  const entries = parseJsonl<{ _id: string; title: string; text: string }>(
    readFileSync(file, "utf8"),
    file,
  ).filter((e) => /^(gui|installed)-/.test(e._id));
  for (const markup of Object.keys(MARKUPS)) {
    const dir = Deno.makeTempDirSync({ prefix: "eval-markup-test-" });
    try {
      const { docs, units } = await importedCorpus(entries, markup, "en", dir);
      assert.equal(units, entries.length, markup);
      assert.deepEqual(
        entries.map((e) => e._id).filter((id) => !docs.some((d) => d._id === id)),
        [],
        markup,
      );
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
});

Deno.test("eval:markup: --details makes its folder; an unknown --set is refused before any run", async () => {
  const folder = `${tempDir()}/not/yet/there`;
  await main(["--markup", "details", "--set", "dev", "--lang", "en", "--details", folder]);
  const lines = readFileSync(`${folder}/details_en.jsonl`, "utf8").trim().split("\n");
  assert.equal(lines.length, 12);
  await assert.rejects(main(["--set", "heldOut"]), /Unknown --set "heldOut": use heldout or dev/);
});
