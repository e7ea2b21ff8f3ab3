/**
 * `deno task corpus:check [--corpus corpus] [--online] [--base-url URL]
 * [--min-words 25] [--max-words 400]`: reports broken internal links,
 * documents without a license or file, duplicate and near-duplicate passages,
 * passages too short or too long and, with --online, document URLs that no
 * longer answer. Exit status 1 when there is an error (warnings alone: 0).
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { checkCorpus } from "@/lib/corpus/import/check.ts";

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      corpus: { type: "string", default: fileURLToPath(new URL("../corpus", import.meta.url)) },
      online: { type: "boolean", default: false },
      "base-url": { type: "string" },
      "min-words": { type: "string", default: "25" },
      "max-words": { type: "string", default: "400" },
    },
  });
  try {
    const findings = await checkCorpus({
      corpusDir: values.corpus!,
      online: values.online,
      baseUrl: values["base-url"],
      minWords: Number(values["min-words"]),
      maxWords: Number(values["max-words"]),
    });
    for (const f of findings) {
      console.log(`${f.severity.padEnd(7)} ${f.kind.padEnd(14)} ${f.where}: ${f.detail}`);
    }
    const errors = findings.filter((f) => f.severity === "error").length;
    console.log(`${errors} errors, ${findings.length - errors} warnings in "${values.corpus}".`);
    if (errors) Deno.exit(1);
  } catch (error) {
    console.error(`Check stopped: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
