/**
 * Builds lib/search/data/pt_variants.ts: words of European Portuguese that Brazilian
 * Portuguese says otherwise ("ficheiro" → "arquivo", "registo" → "registro", "ecrã" →
 * "tela"), learned from LibreOffice's two Portuguese translations as Debian packages them
 * (MPL-2.0): the same help paragraph ids and the same interface strings, translated once for
 * Portugal and once for Brazil.
 *
 *   apt-get download libreoffice-help-pt libreoffice-help-pt-br libreoffice-l10n-pt \
 *     libreoffice-l10n-pt-br focalinux-text gimp-help-pt-br
 *   for f in *.deb; do dpkg-deb -x "$f" lo; done
 *   (zcat lo/usr/share/doc/focalinux/text/*\/index.txt.gz | iconv -f latin1 -t utf-8; \
 *     find lo/usr/share/gimp/2.0/help/pt_BR -name '*.html' -exec sed 's/<[^>]*>/ /g' {} +; \
 *     cat tests/fixtures/faquad/corpus.jsonl) > br.txt
 *   deno task lexicon:variants lo br.txt > variants.ts && mv variants.ts lib/search/data/pt_variants.ts
 *
 * (The table is written elsewhere first: the analyzer this script imports reads it.)
 *
 * IBM Model 1 both ways over the pairs that differ (a side the detector reads as English, an
 * untranslated paragraph, is left out); a pair is kept when each word is the other's likely
 * translation (p ≥ 0.3 both ways), the European word is all but absent from the Brazilian
 * translation (at most a twentieth as often) and the Brazilian word is the Brazilian
 * translation's (at least twice as often there), both seen three times or more, neither a
 * function word, and their stems differ. LibreOffice's Brazilian text is one program's words,
 * so no word of the European word's stem may appear in other Brazilian text (`br.txt`: the
 * Foca Linux guide, GIMP's Brazilian help and FaQuAD's Wikipedia paragraphs, 680,000 words):
 * "experiência", "rodar", "devolver" are Brazilian words too (this also leaves out
 * "utilizador", whose stem is "utilizar"'s). A word written in capitals most of the time is a
 * spreadsheet function's name, and an English word of the shipped lexicon an untranslated one:
 * both are left out, and so is a word the search reads as two ("palavra-passe"). Only the
 * likeliest Brazilian word is kept for each European one. A pair of LibreOffice's own names
 * ("nomematriz" → "arrayname") stays: read as one word, two names no page uses change nothing
 * (leaving out Brazilian words absent from `br.txt` was tried and dropped: it also cut
 * "donativos" → "doação"; docs/history/benchmarks-diary.md, round 14).
 */
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { fold, isStopword, snowballStem, tokenize } from "@/lib/search/analyzer.ts";
import { detectLang } from "@/lib/search/detect_lang.ts";
import { shippedLexicon } from "@/lib/search/lexicon.ts";
import {
  catalogPairsBetween,
  distinctPairs,
  helpPairsBetween,
  type TextPair,
} from "./lexicon/libreoffice_pairs.ts";
import { type SentencePair, trainModel1 } from "./lexicon/word_alignment.ts";
import { words } from "./lexicon_from_libreoffice.ts";

/** Least p(b | a) and p(a | b) of a kept pair. */
const LIKELY = 0.3;
/** Least times each word is seen on its side. */
const SEEN = 3;
/** Most a European word may be seen in the Brazilian text, as a share of its own count. */
const FOREIGN_SHARE = 1 / 20;
/** Least ratio of the Brazilian word's count in the Brazilian text to the European one's. */
const OWN_RATIO = 2;

/** A word the search reads as one token ("palavra-passe" is two). */
const oneWord = (w: string) => tokenize(w).length === 1;

/** Counts of each word on one side. */
function counts(sentences: ReadonlyArray<readonly string[]>): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of sentences) for (const w of s) out.set(w, (out.get(w) ?? 0) + 1);
  return out;
}

/** What else a pair is checked against. */
export interface VariantChecks {
  /** Counts of the Snowball stems (`snowballStem`) of other Brazilian text's words. */
  brazilian: ReadonlyMap<string, number>;
  /** Whether a word is an English word, not a Portuguese one. */
  english: (word: string) => boolean;
}

/** Words written in capitals (spreadsheet function names: "AMORT", "FUNCERRO"), with counts. */
function capitalised(texts: readonly TextPair[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const [pt] of texts) {
    for (const w of pt.match(/\b\p{Lu}{2,}\b/gu) ?? []) {
      const lower = w.toLowerCase();
      out.set(lower, (out.get(lower) ?? 0) + 1);
    }
  }
  return out;
}

/** The [European, Brazilian] word pairs of the two translations' differing sentence pairs. */
export function variantPairs(
  texts: readonly TextPair[],
  checks: VariantChecks,
): Array<[string, string]> {
  const pairs: SentencePair[] = [];
  for (const [pt, br] of texts) {
    if (detectLang(pt, "pt") === "en" || detectLang(br, "pt") === "en") continue;
    const a = words(pt);
    const b = words(br);
    if (a.length && b.length && a.length <= 80 && b.length <= 80) pairs.push([a, b]);
  }
  const seenPt = counts(pairs.map((p) => p[0]));
  const seenBr = counts(pairs.map((p) => p[1]));
  const capitals = capitalised(texts);
  const stemOf = (w: string) => snowballStem(fold(w), "pt");
  // By stem: "devolvem" is absent, but "devolver" is there.
  const inOtherText = (w: string) => checks.brazilian.get(stemOf(w)) ?? 0;
  const forward = trainModel1(pairs);
  const backward = trainModel1(pairs.map(([a, b]) => [b, a]));
  const out: Array<[string, string]> = [];
  for (const [a, row] of forward) {
    const inPt = seenPt.get(a) ?? 0;
    if (inPt < SEEN || (seenBr.get(a) ?? 0) > inPt * FOREIGN_SHARE || isStopword(fold(a), "pt")) {
      continue;
    }
    if (2 * (capitals.get(a) ?? 0) >= inPt || checks.english(a) || !oneWord(a)) continue;
    if (inOtherText(a) > 0) continue;
    let best: [string, number] | null = null;
    for (const [b, p] of row) {
      const inBr = seenBr.get(b) ?? 0;
      const back = backward.get(b)?.get(a) ?? 0;
      if (p < LIKELY || back < LIKELY || inBr < SEEN) continue;
      if ((seenPt.get(b) ?? 0) * OWN_RATIO > inBr || isStopword(fold(b), "pt")) continue;
      if (!oneWord(b) || stemOf(a) === stemOf(b)) continue;
      if (!best || p * back > best[1]) best = [b, p * back];
    }
    if (best) out.push([a, best[0]]);
  }
  return out.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

if (import.meta.main) {
  const [root, brazilianText] = Deno.args;
  if (!root || !brazilianText) {
    console.error(
      "Usage: deno task lexicon:variants <folder the .deb packages were extracted into> <br.txt>",
    );
    Deno.exit(2);
  }
  const lexicon = shippedLexicon();
  const checks: VariantChecks = {
    brazilian: counts([
      words(readFileSync(brazilianText, "utf8")).map((w) => snowballStem(fold(w), "pt")),
    ]),
    english: (w) => lexicon.en.has(fold(w)) && !lexicon.pt.has(fold(w)),
  };
  const texts = distinctPairs([
    ...helpPairsBetween(join(root, "usr/share/libreoffice/help"), "pt", "pt-BR"),
    ...catalogPairsBetween(join(root, "usr/lib/libreoffice/program/resource"), "pt", "pt_BR"),
  ]);
  const pairs = variantPairs(texts, checks);
  console.log(
    [
      "// Generated by scripts/lexicon_pt_variants.ts from LibreOffice's pt and pt-BR translations",
      "// (Debian packages libreoffice-help-pt, -help-pt-br, -l10n-pt, -l10n-pt-br): MPL-2.0, see",
      "// LICENSE-MPL-2.0 beside this file. Do not edit; rebuild with `deno task lexicon:variants`.",
      "",
      "/** European Portuguese words and the word Brazilian Portuguese says instead. */",
      "export const PT_VARIANTS: ReadonlyArray<readonly [european: string, brazilian: string]> = [",
      ...pairs.map(([a, b]) => `  [${JSON.stringify(a)}, ${JSON.stringify(b)}],`),
      "];",
    ].join("\n"),
  );
}
