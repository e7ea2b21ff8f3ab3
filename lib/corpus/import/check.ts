/**
 * `corpus:check`: what is wrong or weak in a corpus folder, without building
 * the index — broken internal links (page or #anchor), documents without a
 * license or file, exact and near-duplicate passages, passages too short or
 * too long, and (online) document URLs that no longer answer. Passages are
 * cut exactly as the index cuts them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderDoc } from "@/lib/corpus/pages.ts";
import { corpusPassages } from "@/lib/search/corpus_index.ts";
import type { CorpusDocument } from "@/lib/search/manifest.ts";
import { readManifest } from "./manifest_update.ts";

/** Options of `checkCorpus`. */
export interface CheckOptions {
  corpusDir: string;
  /** Also ask every document URL whether it still answers. */
  online?: boolean;
  /** Resolves root-relative document URLs for --online (default: they are not asked). */
  baseUrl?: string;
  /** Passages under this many words are reported (default 25). */
  minWords?: number;
  /** Passages over this many words are reported (default 400; the chunker aims at 150–350). */
  maxWords?: number;
  /** Word-shingle Jaccard similarity from which two passages are near-duplicates (default 0.8). */
  nearDuplicate?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The kinds of finding. Errors make the command fail; warnings do not. */
export type CheckKind =
  | "missing-file"
  | "no-license"
  | "broken-link"
  | "unreachable"
  | "duplicate"
  | "near-duplicate"
  | "too-short"
  | "too-long";

/** One finding. */
export interface CheckFinding {
  kind: CheckKind;
  severity: "error" | "warning";
  /** Document id or passage id. */
  where: string;
  detail: string;
}

const WARNINGS = new Set<CheckKind>(["near-duplicate", "too-short", "too-long"]);
const finding = (kind: CheckKind, where: string, detail: string): CheckFinding => ({
  kind,
  severity: WARNINGS.has(kind) ? "warning" : "error",
  where,
  detail,
});

/** Checks the corpus in `options.corpusDir`; findings in a stable order. */
export async function checkCorpus(options: CheckOptions): Promise<CheckFinding[]> {
  const out: CheckFinding[] = [];
  const docs: CorpusDocument[] = [];
  for (const e of readManifest(options.corpusDir)) {
    if (typeof e.license !== "string" || !e.license.trim()) {
      out.push(finding("no-license", e.id, `no license: add "license" to its manifest entry`));
    }
    let markdown: string;
    try {
      markdown = readFileSync(join(options.corpusDir, e.path), "utf8");
    } catch {
      out.push(finding("missing-file", e.id, `file "${e.path}" cannot be read`));
      continue;
    }
    docs.push({ ...e, url: e.url || null, lang: e.lang ?? "pt", markdown });
  }
  out.push(...brokenLinks(docs));
  out.push(...passageFindings(docs, options));
  if (options.online) out.push(...await unreachable(docs, options));
  return out;
}

const LINK = /\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const SITE = "http://site.invalid";

/** "/a/b/" and "/a/b.html" and "/a/b" are the same page. */
function pageKey(u: URL): string {
  const path = u.pathname.replace(/\/index\.(html?|mdx?)$/i, "/").replace(/\.(html?|mdx?)$/i, "")
    .replace(/\/+$/, "");
  return `${u.host}${path || "/"}`;
}

/** Links to pages of the corpus's own site that are not in the corpus, or to missing anchors. */
export function brokenLinks(docs: readonly CorpusDocument[]): CheckFinding[] {
  const pages = new Map<string, CorpusDocument>();
  const hosts = new Set<string>();
  for (const d of docs) {
    if (!d.url) continue;
    const u = new URL(d.url, SITE);
    pages.set(pageKey(u), d);
    hosts.add(u.host);
  }
  const anchors = new Map<CorpusDocument, Set<string>>();
  const anchorsOf = (d: CorpusDocument) => {
    let set = anchors.get(d);
    if (!set) anchors.set(d, set = new Set(renderDoc(d.markdown).headings.map((h) => h.id)));
    return set;
  };
  const out: CheckFinding[] = [];
  for (const d of docs) {
    const base = new URL(d.url ?? "/", SITE);
    const body = d.markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, "");
    for (const [, href] of body.matchAll(LINK)) {
      if (/^(mailto|tel|javascript|data):/i.test(href)) continue;
      let target: URL;
      try {
        target = new URL(href, base);
      } catch {
        out.push(finding("broken-link", d.id, `link "${href}" is not a valid URL`));
        continue;
      }
      if (!hosts.has(target.host)) continue; // another site: not ours to judge offline
      const page = href.startsWith("#") ? d : pages.get(pageKey(target));
      if (!page) {
        out.push(finding("broken-link", d.id, `link "${href}" names no document of the corpus`));
      } else if (target.hash && !anchorsOf(page).has(decodeURIComponent(target.hash.slice(1)))) {
        out.push(
          finding(
            "broken-link",
            d.id,
            `link "${href}": "${page.id}" has no heading "${target.hash}"`,
          ),
        );
      }
    }
  }
  return out;
}

const wordsOf = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Duplicate and near-duplicate passages, and passages outside the word bounds. */
export function passageFindings(
  docs: readonly CorpusDocument[],
  options: Pick<CheckOptions, "minWords" | "maxWords" | "nearDuplicate">,
): CheckFinding[] {
  const out: CheckFinding[] = [];
  const min = options.minWords ?? 25;
  const max = options.maxWords ?? 400;
  const passages = corpusPassages(docs);
  const exact = new Map<string, string>();
  const shingles: Set<string>[] = [];
  for (const p of passages) {
    const words = wordsOf(p.text);
    if (words.length < min) {
      out.push(finding("too-short", p.id, `${words.length} words (under ${min})`));
    }
    if (words.length > max) {
      out.push(finding("too-long", p.id, `${words.length} words (over ${max})`));
    }
    const key = words.join(" ");
    const first = exact.get(key);
    if (first && key) out.push(finding("duplicate", p.id, `same text as "${first}"`));
    else exact.set(key, p.id);
    const set = new Set<string>();
    for (let i = 0; i + 5 <= words.length; i++) set.add(words.slice(i, i + 5).join(" "));
    shingles.push(first ? new Set() : set);
  }
  out.push(...nearDuplicates(passages.map((p) => p.id), shingles, options.nearDuplicate ?? 0.8));
  return out;
}

/** Pairs whose shingle sets overlap by Jaccard ≥ `threshold`, found through shared shingles. */
function nearDuplicates(ids: string[], sets: Set<string>[], threshold: number): CheckFinding[] {
  const posting = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const s of set) {
      const list = posting.get(s);
      if (list) list.push(i);
      else posting.set(s, [i]);
    }
  });
  const out: CheckFinding[] = [];
  for (let i = 0; i < sets.length; i++) {
    const shared = new Map<number, number>();
    for (const s of sets[i]) {
      const list = posting.get(s)!;
      if (list.length > 200) continue; // a stock phrase everywhere says nothing about pairs
      for (const j of list) if (j > i) shared.set(j, (shared.get(j) ?? 0) + 1);
    }
    for (const [j, n] of shared) {
      const jaccard = n / (sets[i].size + sets[j].size - n);
      if (jaccard >= threshold) {
        out.push(
          finding("near-duplicate", ids[j], `${Math.round(jaccard * 100)}% like "${ids[i]}"`),
        );
      }
    }
  }
  return out;
}

/** Documents whose URL does not answer 2xx (after redirects), a few requests at a time. */
async function unreachable(
  docs: readonly CorpusDocument[],
  options: CheckOptions,
): Promise<CheckFinding[]> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const targets = docs.flatMap((d) => {
    if (!d.url) return [];
    if (/^https?:/i.test(d.url)) return [[d.id, d.url]];
    return options.baseUrl ? [[d.id, new URL(d.url, options.baseUrl).href]] : [];
  });
  const out: CheckFinding[] = [];
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const [id, url] = targets[next++];
      try {
        const res = await doFetch(url, {
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
        await res.body?.cancel();
        if (!res.ok) out.push(finding("unreachable", id, `"${url}" answers ${res.status}`));
      } catch (error) {
        out.push(
          finding("unreachable", id, `"${url}" does not answer (${(error as Error).message})`),
        );
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return out.sort((a, b) => a.where.localeCompare(b.where));
}
