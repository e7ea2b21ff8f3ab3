/**
 * `importCorpus`: one import run, from a source to an updated corpus folder.
 * Collect → strip repeated boilerplate → settle language, license and
 * duplicates → plan against the manifest → write (unless a dry run).
 *
 * @example
 * const result = await importCorpus({ source: "https://example.com/sitemap.xml", corpusDir: "corpus", license: "CC-BY-4.0" });
 * console.log(formatReport(result.entries, result.written));
 */
import { resolve } from "node:path";
import { relative } from "node:path";
import { stripRepeatedBlocks } from "./boilerplate.ts";
import { type Candidate, type Collected, collectFolder, collectWeb } from "./collect.ts";
import { createFetcher } from "./fetch_policy.ts";
import { DEFAULT_PAGE_BUDGET, type PageBudget } from "./page_budget.ts";
import { pickLang } from "./lang.ts";
import { applyPlan, type ImportPlan, planImport, readManifest } from "./manifest_update.ts";
import { countReport, type ReportCounts } from "./report.ts";
import {
  listFolder,
  pathFilter,
  readSitemap,
  readUrlList,
  SourceError,
  sourceKind,
} from "./sources.ts";
import type { ImportedDoc, ReportEntry } from "./types.ts";

export { SourceError };

/** Options of one import. */
export interface ImportOptions {
  /** A folder, an http(s) sitemap URL, or a file listing page URLs. */
  source: string;
  /** The corpus folder holding manifest.json. */
  corpusDir: string;
  lang?: "pt" | "en" | "auto";
  /** License of the documents that declare none themselves (license link, front matter). */
  license?: string;
  /** The manifest's `source` (who wrote it); default: the site's host or the folder's name. */
  sourceName?: string;
  include?: string[];
  exclude?: string[];
  /** The public URL of a folder's site, to make its documents' URLs absolute. */
  baseUrl?: string;
  /** Id prefix and folder name under corpus/imported/ (default from host or folder). */
  idPrefix?: string;
  concurrency?: number;
  delayMs?: number;
  timeoutMs?: number;
  /** Largest page read, in bytes (default 2 MiB). */
  maxBytes?: number;
  /** Most page URLs read from a sitemap (default 50,000); the report says when it is reached. */
  maxUrls?: number;
  /** Per-page bounds on nesting depth, element count and work (see page_budget.ts). */
  pageBudget?: Partial<Omit<PageBudget, "maxBytes">>;
  /** Report only; write nothing. */
  dryRun?: boolean;
  /** The fetch a live import uses (default globalThis.fetch). */
  fetch?: typeof fetch;
}

/** What an import did. */
export interface ImportResult {
  entries: ReportEntry[];
  counts: ReportCounts;
  /** Whether the corpus was written (false for a dry run or when nothing changed). */
  written: boolean;
  plan: ImportPlan;
}

/** Runs one import. Throws SourceError, with nothing written, when the source is unusable. */
export async function importCorpus(options: ImportOptions): Promise<ImportResult> {
  const kind = sourceKind(options.source);
  const keep = pathFilter(options.include ?? [], options.exclude ?? []);
  const current = readManifest(options.corpusDir); // a broken manifest stops us before any work
  let collected: Collected;
  let from: string;
  let name: string;
  let capped = false;
  const notes: ReportEntry[] = [];
  const budget: PageBudget = {
    ...DEFAULT_PAGE_BUDGET,
    ...options.pageBudget,
    maxBytes: options.maxBytes ?? DEFAULT_PAGE_BUDGET.maxBytes,
  };
  if (kind === "folder") {
    const dir = resolve(options.source);
    from = relative(Deno.cwd(), dir) || ".";
    name = dir.split("/").filter(Boolean).pop() ?? "site";
    const rels = listFolder(dir).filter(keep);
    if (!rels.length) {
      throw new SourceError(`Folder "${dir}" has no .html, .md or .mdx file to import`);
    }
    collected = collectFolder(dir, rels, options.baseUrl, budget);
    if (!options.baseUrl) {
      notes.push({
        kind: "note",
        target: from,
        detail: "no --base-url: pages without a canonical URL get the path they are served at",
      });
    }
  } else {
    const urls = kind === "sitemap" ? null : readUrlList(options.source);
    const site = new URL(urls?.[0] ?? options.source);
    from = kind === "sitemap" ? site.href : relative(Deno.cwd(), resolve(options.source));
    name = site.host;
    const fetcher = createFetcher({ ...options, origin: site.origin });
    let list = urls ?? [];
    if (kind === "sitemap") {
      const map = await readSitemap(site.href, fetcher, options.maxUrls);
      list = map.urls;
      capped = map.capped;
      notes.push(...map.notes);
    }
    const filtered: string[] = [];
    for (const u of list) {
      if (keep(safePath(u))) filtered.push(u);
      else notes.push({ kind: "skipped", target: u, detail: "excluded by --include/--exclude" });
    }
    collected = await collectWeb(filtered, fetcher, budget);
  }
  const entries = [...notes, ...collected.entries];
  const docs = settle(collected.candidates, options, options.sourceName ?? name, entries);
  const prefix = options.idPrefix ?? slugPrefix(name);
  // Past the URL cap the sitemap was not read: pages not seen may still be listed.
  const plan = await planImport(current, docs, {
    from,
    prefix,
    keep: collected.transient,
    keepUnseen: capped,
  });
  reportPlan(plan, collected, entries);
  const dirty = plan.added.length + plan.changed.length + plan.removed.length > 0;
  if (dirty && !options.dryRun) applyPlan(options.corpusDir, plan);
  return { entries, counts: countReport(entries), written: dirty && !options.dryRun, plan };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

const slugPrefix = (name: string) =>
  name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "site";

/** Boilerplate out, then language, license and duplicate URLs settled; report lines for drops. */
function settle(
  candidates: Candidate[],
  options: ImportOptions,
  sourceName: string,
  entries: ReportEntry[],
): ImportedDoc[] {
  const html = candidates.filter((c) => !c.verbatim);
  const stripped = stripRepeatedBlocks(html.map((c) => c.markdown)).pages;
  html.forEach((c, i) => c.markdown = stripped[i]);
  // A page reached by a redirect yields to the page listed under its own URL.
  const ordered = [...candidates].sort((a, b) =>
    Number(a.url !== a.origin) - Number(b.url !== b.origin)
  );
  const byUrl = new Map<string, string>();
  const docs: ImportedDoc[] = [];
  for (const c of ordered) {
    const skip = (why: string) => entries.push({ kind: "skipped", target: c.origin, detail: why });
    // A license the page declares is more specific than the import's default.
    const license = c.license || options.license || "";
    if (!license) {
      skip("no license: pass --license (or give the page a license link / front matter)");
      continue;
    }
    if (!c.verbatim && !/^(?!#)\S/m.test(c.markdown)) {
      skip("nothing left after removing navigation and boilerplate");
      continue;
    }
    if (c.url && byUrl.has(c.url)) {
      skip(`same page as "${byUrl.get(c.url)}" (URL ${c.url})`);
      continue;
    }
    if (c.url) byUrl.set(c.url, c.origin);
    const lang = pickLang(options.lang ?? "auto", c.declaredLang, c.markdown);
    docs.push({ ...c, lang, license, source: sourceName });
  }
  return docs;
}

function reportPlan(plan: ImportPlan, collected: Collected, entries: ReportEntry[]): void {
  for (const r of plan.removed) {
    entries.push({
      kind: "removed",
      target: r.import?.origin ?? r.id,
      detail: `no longer in the source (${r.path})`,
    });
  }
  for (const c of plan.changed) {
    entries.push({ kind: "changed", target: c.record.import!.origin, detail: c.record.path });
  }
  for (const a of plan.added) {
    entries.push({ kind: "added", target: a.record.import!.origin, detail: a.record.path });
  }
  for (const u of plan.unchanged) {
    entries.push({ kind: "unchanged", target: u.import!.origin, detail: "" });
  }
  // A page imported before that failed for a passing reason keeps its earlier version.
  for (const e of entries) {
    if (
      e.kind === "skipped" && collected.transient.has(e.target) &&
      plan.next.some((r) => r.import?.origin === e.target)
    ) {
      e.kind = "kept";
      e.detail = `${e.detail}; the earlier version stays`;
    }
  }
}
