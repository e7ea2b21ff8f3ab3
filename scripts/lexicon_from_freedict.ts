/**
 * Builds the SEARCH_LEXICON TSV from Debian's FreeDict dictionaries (GPL; keep the result
 * out of the repository):
 *
 *   apt-get download dict-freedict-por-eng dict-freedict-eng-por
 *   for f in dict-freedict-*.deb; do dpkg-deb -x "$f" freedict; done
 *   deno run -A scripts/lexicon_from_freedict.ts freedict/usr/share/dictd > lexicon.tsv
 *
 * Each dictd entry is a headword line ("casa /ˈkazɐ/ <s>") then its senses ("1. house,
 * home"); every sense word becomes a `pt<TAB>en` line.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const num = (s: string) => [...s].reduce((n, c) => n * 64 + B64.indexOf(c), 0);

/** [headword, translations] of a dictd dictionary. */
function* entries(dir: string, name: string): Generator<[string, string[]]> {
  const dict = gunzipSync(readFileSync(`${dir}/${name}.dict.dz`));
  for (const line of readFileSync(`${dir}/${name}.index`, "utf8").split("\n")) {
    const [head, off, len] = line.split("\t");
    if (!head || !len || head.startsWith("00database")) continue;
    const body = dict.subarray(num(off), num(off) + num(len)).toString("utf8").split("\n").slice(1);
    const senses = body.join(",").replace(/^\s*\d+\.\s*/gm, "").replace(/\d+\.\s/g, "")
      .split(/[,;]/).map((s) => s.replace(/\(.*?\)|<.*?>/g, "").trim()).filter(Boolean);
    yield [head.trim(), senses];
  }
}

if (import.meta.main) {
  const dir = Deno.args[0] ?? "/usr/share/dictd";
  const out: string[] = [];
  for (const [pt, ens] of entries(dir, "freedict-por-eng")) {
    for (const en of ens) out.push(`${pt}\t${en}`);
  }
  for (const [en, pts] of entries(dir, "freedict-eng-por")) {
    for (const pt of pts) out.push(`${pt}\t${en}`);
  }
  console.log(out.join("\n"));
}
