/**
 * Portuguese–English sentence pairs from LibreOffice's own translations, as Debian ships
 * them (MPL-2.0): the help pages of `libreoffice-help-en-us` and `libreoffice-help-pt-br`,
 * whose paragraphs carry the same ids in both languages, and the interface strings of
 * `libreoffice-l10n-pt-br` (gettext catalogs, English source → Brazilian Portuguese).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { listFolder } from "@/lib/corpus/import/sources.ts";
import { readMoFile } from "./mo_file.ts";

/** A Portuguese text and its English original. */
export type TextPair = readonly [pt: string, en: string];

/** Every file under `dir` whose name ends with `suffix`, in name order (the build is reproducible). */
function filesUnder(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, suffix));
    else if (name.endsWith(suffix)) out.push(path);
  }
  return out;
}

/** The text of each paragraph or heading with a help id ("par_id…", "hd_id…"), by id. */
export function helpParagraphs(html: string): Map<string, string> {
  const { document } = parseHTML(html);
  const out = new Map<string, string>();
  for (const el of document.querySelectorAll('[id^="par_id"], [id^="hd_id"]')) {
    const text = (el.textContent ?? "").replace(/\s+/g, " ").trim();
    if (text) out.set(el.getAttribute("id")!, text);
  }
  return out;
}

/** Help paragraphs of the same page and id in both languages, where they differ. */
export function helpPairs(helpRoot: string): TextPair[] {
  return helpPairsBetween(helpRoot, "pt-BR", "en-US");
}

/**
 * Help paragraphs of the same page and id in the help folders `a` and `b` ("pt", "pt-BR"),
 * as [a's, b's], where they differ.
 */
export function helpPairsBetween(helpRoot: string, a: string, b: string): TextPair[] {
  const bRoot = join(helpRoot, b);
  const out: TextPair[] = [];
  for (const page of listFolder(bRoot)) {
    let aHtml: string;
    try {
      aHtml = readFileSync(join(helpRoot, a, page), "utf8");
    } catch {
      continue; // a page without its translation
    }
    const translated = helpParagraphs(aHtml);
    for (const [id, text] of helpParagraphs(readFileSync(join(bRoot, page), "utf8"))) {
      const other = translated.get(id);
      if (other && other !== text) out.push([other, text]);
    }
  }
  return out;
}

/**
 * The translations of the same source string in two catalog folders ("pt", "pt_BR" under
 * LibreOffice's program/resource), as [a's, b's], where they differ.
 */
export function catalogPairsBetween(resourceRoot: string, a: string, b: string): TextPair[] {
  const out: TextPair[] = [];
  const bDir = join(resourceRoot, b);
  for (const path of filesUnder(bDir, ".mo")) {
    let aFile: Uint8Array;
    try {
      aFile = readFileSync(join(resourceRoot, a, path.slice(bDir.length)));
    } catch {
      continue;
    }
    const byId = new Map(readMoFile(aFile).map((e) => [e.source, e.translation]));
    for (const { source, translation } of readMoFile(readFileSync(path))) {
      const other = withoutMnemonics(byId.get(source) ?? "");
      const text = withoutMnemonics(translation);
      if (other && text && other !== text) out.push([other, text]);
    }
  }
  return out;
}

/**
 * An interface string without its keyboard mnemonics: the "~" of LibreOffice's own menus and
 * the "_" of its GTK dialogs ("E_xcluir", "_Save"). Left in, "_" split a word in two, and the
 * halves were learned as words ("liminar" → "xcluir" from "E_liminar" / "E_xcluir").
 */
export function withoutMnemonics(text: string): string {
  return text.replaceAll("~", "").replace(
    /(?<![\p{L}\p{N}_])_(?=\p{L})|(?<=\p{L})_(?=\p{L})/gu,
    "",
  );
}

/** Interface strings of every catalog under `dir`, without their keyboard mnemonics. */
export function interfacePairs(dir: string): TextPair[] {
  const out: TextPair[] = [];
  for (const path of filesUnder(dir, ".mo")) {
    for (const { source, translation } of readMoFile(readFileSync(path))) {
      const en = withoutMnemonics(source);
      const pt = withoutMnemonics(translation);
      if (pt && en && pt !== en) out.push([pt, en]);
    }
  }
  return out;
}

/** Pairs in first-seen order, each once. */
export function distinctPairs(pairs: Iterable<TextPair>): TextPair[] {
  const seen = new Set<string>();
  const out: TextPair[] = [];
  for (const pair of pairs) {
    const key = `${pair[0]}\u0000${pair[1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(pair);
  }
  return out;
}
