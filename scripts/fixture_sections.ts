/**
 * Builds the corpora of the real sites held out as test sets (tests/fixtures/debfaq/, the
 * Debian FAQ; tests/fixtures/harden/, the Securing Debian Manual) in the BEIR layout, from the
 * site's pages as `deno task corpus:import` imports them: one document per numbered section
 * ("3.1.4. Se Eu decidir mudar para outra distribuição, posso fazê-lo?"), `_id` its number (the
 * same in both languages, so the two corpora are parallel), `title` its heading as the page
 * writes it, `text` the passage text the chunker makes of it. A section the chunker splits keeps
 * one document per passage (`3.1#2`). Reproducible from the Debian packages (see each fixture's
 * SOURCES.md):
 *
 *   deno task corpus:import /usr/share/doc/debian/FAQ/pt --lang pt --corpus <dir> --id-prefix pt
 *   deno run -A scripts/fixture_sections.ts <dir>/imported/pt > corpus_pt.jsonl
 */
import { readdirSync, readFileSync } from "node:fs";
import { chunkMarkdown } from "@/lib/search/chunker.ts";

/** A section heading's number and its text: "3.1.4. Se Eu…?" → ["3.1.4", "3.1.4. Se Eu…?"]. */
const NUMBERED = /^(\d+(?:\.\d+)*)\.\s/;

/** The BEIR documents of one language's imported markdown files. */
export function sectionDocs(files: ReadonlyArray<string>): Array<Record<string, string>> {
  const docs: Array<Record<string, string>> = [];
  const seen = new Map<string, number>();
  for (const markdown of files) {
    for (const chunk of chunkMarkdown(markdown)) {
      const heading = chunk.path.at(-1) ?? "";
      const number = NUMBERED.exec(heading)?.[1];
      if (!number || !chunk.text.trim()) continue;
      const n = (seen.get(number) ?? 0) + 1;
      seen.set(number, n);
      docs.push({ _id: n === 1 ? number : `${number}#${n}`, title: heading, text: chunk.text });
    }
  }
  return docs;
}

if (import.meta.main) {
  const dir = Deno.args[0];
  if (!dir) {
    console.error("Usage: deno run -A scripts/fixture_sections.ts <imported markdown folder>");
    Deno.exit(2);
  }
  const files = readdirSync(dir).filter((f) => f.endsWith(".md")).sort()
    .map((f) => readFileSync(`${dir}/${f}`, "utf8"));
  for (const doc of sectionDocs(files)) console.log(JSON.stringify(doc));
}
