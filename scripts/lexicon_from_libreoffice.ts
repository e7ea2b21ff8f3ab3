/**
 * Builds the bilingual lexicon the search ships (lib/search/data/lexicon_pt_en.tsv) from
 * LibreOffice's Portuguese translation, as Debian packages it (MPL-2.0):
 *
 *   apt-get download libreoffice-help-en-us libreoffice-help-pt-br libreoffice-l10n-pt-br
 *   for f in libreoffice-*.deb; do dpkg-deb -x "$f" lo; done
 *   deno task lexicon lo > lib/search/data/lexicon_pt_en.tsv
 *
 * The help pages (aligned by paragraph id) and the interface strings are sentence pairs;
 * IBM Model 1, trained both ways, gives each word's translations, and a pair is kept when
 * p(en | pt) ≥ 0.05 and p(pt | en) ≥ 0.02, both words seen twice or more and neither a
 * function word (scripts/lexicon/word_alignment.ts). The thresholds were picked on the
 * Python FAQ's cross-language dev questions (docs/history/benchmarks-diary.md).
 */
import { join } from "node:path";
import { fold, isStopword } from "@/lib/search/analyzer.ts";
import { distinctPairs, helpPairs, interfacePairs } from "./lexicon/libreoffice_pairs.ts";
import { agreedPairs, type SentencePair, trainModel1 } from "./lexicon/word_alignment.ts";

/** Lower-case words of letters, with inner hyphens and apostrophes ("e-mail", "don't"). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/\p{L}+(?:['’-]\p{L}+)*/gu) ?? [];
}

/** Sentence pairs longer than this many words on a side are left out (slow, loosely aligned). */
const MAX_WORDS = 80;

/** The lexicon's TSV lines from an extracted tree of the three packages. */
export function buildLexicon(root: string): { lines: string[]; sentences: number } {
  const texts = distinctPairs([
    ...helpPairs(join(root, "usr/share/libreoffice/help")),
    ...interfacePairs(join(root, "usr/lib/libreoffice/program/resource")),
  ]);
  const pairs: SentencePair[] = [];
  const seen = { pt: new Map<string, number>(), en: new Map<string, number>() };
  for (const [pt, en] of texts) {
    const p = words(pt);
    const e = words(en);
    if (!p.length || !e.length || p.length > MAX_WORDS || e.length > MAX_WORDS) continue;
    pairs.push([p, e]);
    for (const w of p) seen.pt.set(w, (seen.pt.get(w) ?? 0) + 1);
    for (const w of e) seen.en.set(w, (seen.en.get(w) ?? 0) + 1);
  }
  const ptToEn = trainModel1(pairs);
  const enToPt = trainModel1(pairs.map(([p, e]) => [e, p]));
  const rare = (w: string, side: "source" | "target") =>
    (side === "source" ? seen.pt.get(w) ?? 0 : seen.en.get(w) ?? 0) < 2 ||
    // Folded as the search reads it: "dê" (give) is the stopword "de" there.
    isStopword(fold(w), side === "source" ? "pt" : "en");
  const lines = agreedPairs(ptToEn, enToPt, { skip: rare }).map(([pt, en]) => `${pt}\t${en}`);
  return { lines, sentences: pairs.length };
}

if (import.meta.main) {
  const root = Deno.args[0];
  if (!root) {
    console.error("Usage: deno task lexicon <folder the three .deb packages were extracted into>");
    Deno.exit(2);
  }
  const { lines, sentences } = buildLexicon(root);
  console.log(
    [
      "# Portuguese<TAB>English word pairs learned from LibreOffice's pt-BR translation (help",
      "# pages and interface strings, Debian packages libreoffice-help-en-us, libreoffice-help-pt-br",
      `# and libreoffice-l10n-pt-br): ${sentences} sentence pairs, IBM Model 1 both ways.`,
      "# Derived from LibreOffice, MPL-2.0 (see LICENSE-MPL-2.0 beside this file);",
      "# rebuilt by scripts/lexicon_from_libreoffice.ts.",
      ...lines,
    ].join("\n"),
  );
}
