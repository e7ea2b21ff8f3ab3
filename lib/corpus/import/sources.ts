/**
 * What an import reads: a folder (built HTML and markdown files), a sitemap
 * (a sitemap index followed to its sitemaps, same host only) or a text file
 * listing page URLs. Each yields the list of items to import; a source that
 * cannot be read at all throws SourceError, before anything is written.
 * Sitemaps are streamed, never held whole, and read up to a cap on URLs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import picomatch from "picomatch";
import type { FetchFailure, PageFetcher } from "./fetch_policy.ts";
import { type SitemapRoot, SitemapScanner, SitemapSyntaxError } from "./sitemap_stream.ts";
import type { ReportEntry } from "./types.ts";

/** A source that cannot be read: the import stops and writes nothing. */
export class SourceError extends Error {
  override name = "SourceError";
}

/** The kinds of source `corpus:import` takes. */
export type SourceKind = "folder" | "sitemap" | "list";

/** The kind of the command-line source argument. */
export function sourceKind(arg: string): SourceKind {
  if (/^https?:\/\//i.test(arg)) return "sitemap";
  if (existsSync(arg) && statSync(arg).isDirectory()) return "folder";
  if (/\.(txt|list)$/i.test(arg) || existsSync(arg)) return "list";
  throw new SourceError(
    `Source "${arg}" is neither a folder, an http(s) sitemap URL nor a URL list file: check the path`,
  );
}

/** Include/exclude globs, matched against a path without its leading "/". */
export function pathFilter(include: string[], exclude: string[]): (path: string) => boolean {
  const inc = include.length ? picomatch(include, { dot: true }) : () => true;
  const exc = exclude.length ? picomatch(exclude, { dot: true }) : () => false;
  return (path) => {
    const p = path.replace(/^\/+/, "");
    return inc(p) && !exc(p);
  };
}

const FOLDER_FILES = /\.(html?|md|mdx)$/i;

/** The importable files under `dir` (relative paths, "/" separated, sorted). */
export function listFolder(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new SourceError(`Folder "${dir}" does not exist: give the folder your site builds into`);
  }
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && FOLDER_FILES.test(e.name)) {
        out.push(relative(dir, full).split(sep).join("/"));
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** The URLs of a URL list file: one per line, blank lines and `#` comments ignored. */
export function readUrlList(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new SourceError(`URL list "${file}" cannot be read: check the path`);
  }
  const urls = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  if (!urls.length) throw new SourceError(`URL list "${file}" names no URL: put one per line`);
  return urls;
}

/**
 * Default cap on the page URLs one import reads from its sitemaps. The import keeps every
 * imported page's markdown until the end (boilerplate is found across pages), so memory grows
 * with the pages imported: 5,000 peak at about 233 MiB, within 256 MB; a larger site raises it
 * with --max-urls (20,000 pages peak at about 380 MiB).
 */
export const DEFAULT_MAX_URLS = 5_000;
/** Largest sitemap file read (the sitemap protocol's own limit is 50 MB uncompressed). */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Most child sitemaps followed from one sitemap index. */
const MAX_CHILD_SITEMAPS = 1_000;

/** What `readSitemap` found. */
export interface SitemapUrls {
  urls: string[];
  notes: ReportEntry[];
  /** The URL cap was reached: the sitemaps list more pages than were read. */
  capped: boolean;
}

/**
 * The page URLs of a sitemap, following a sitemap index (depth ≤ 3), with
 * notes for the report. Sitemaps are read as a stream and reading stops at
 * `maxUrls` page URLs (a note says so), so memory stays flat in their size.
 */
export async function readSitemap(
  url: string,
  fetcher: PageFetcher,
  maxUrls = DEFAULT_MAX_URLS,
): Promise<SitemapUrls> {
  const notes: ReportEntry[] = [];
  const urls = new Set<string>();
  const seen = new Set<string>();
  let capped = false;
  const addPage = (page: string): boolean => {
    if (urls.has(page)) return true;
    if (urls.size >= maxUrls) return !(capped = true);
    urls.add(page);
    return true;
  };
  const visit = async (at: string, depth: number, root: boolean): Promise<void> => {
    if (seen.has(at) || capped) return;
    seen.add(at);
    const res = await fetcher.read(at, { robots: false }, (r) => scanSitemap(r, at, addPage));
    const scan = res.ok ? res.value : null;
    const fail = !res.ok
      ? res.reason
      : scan!.status !== 200
      ? `status ${scan!.status}`
      : scan!.root !== "urlset" && scan!.root !== "sitemapindex"
      ? `not a sitemap (${scan!.why ?? "no <urlset> or <sitemapindex> root"})`
      : null;
    if (fail) {
      if (root) throw new SourceError(`Sitemap "${at}" is unusable: ${fail}; nothing was imported`);
      notes.push({ kind: "error", target: at, detail: `sitemap unusable: ${fail}` });
      return;
    }
    notes.push(...scanNotes(at, scan!));
    if (scan!.root !== "sitemapindex") return;
    if (depth >= 3) {
      notes.push({ kind: "error", target: at, detail: "sitemap indexes nested too deep; ignored" });
      return;
    }
    for (const child of scan!.children) await visit(child, depth + 1, false);
  };
  await visit(url, 0, true);
  if (capped) {
    notes.push({
      kind: "note",
      target: url,
      detail: `URL cap reached: only the first ${maxUrls} page URLs of the sitemap were read ` +
        `and pages imported before are kept (raise the cap with --max-urls)`,
    });
  }
  if (!urls.size) throw new SourceError(`Sitemap "${url}" lists no page; nothing was imported`);
  return { urls: [...urls], notes, capped };
}

/** One sitemap file as read: its status and root, and for an index its child sitemaps. */
interface SitemapScan {
  status: number;
  root: SitemapRoot | null;
  /** Why it is not a sitemap, when the XML broke off. */
  why?: string;
  children: string[];
  /** Child sitemaps past MAX_CHILD_SITEMAPS, not followed. */
  dropped: number;
  /** `<loc>` values that are not URLs. */
  invalid: number;
}

/** Report lines of one sitemap read. */
function scanNotes(at: string, scan: SitemapScan): ReportEntry[] {
  const notes: ReportEntry[] = [];
  if (scan.root === "sitemapindex") {
    notes.push({
      kind: "note",
      target: at,
      detail: `sitemap index of ${scan.children.length + scan.dropped} sitemaps`,
    });
  }
  if (scan.dropped) {
    notes.push({
      kind: "error",
      target: at,
      detail: `only the first ${MAX_CHILD_SITEMAPS} sitemaps of the index are followed; ` +
        `${scan.dropped} ignored`,
    });
  }
  if (scan.invalid) {
    notes.push({ kind: "error", target: at, detail: `${scan.invalid} <loc> not URLs; ignored` });
  }
  return notes;
}

/**
 * Streams a sitemap answer through the scanner: page URLs go to `addPage`
 * as they come (reading stops when it returns false), child sitemaps of an
 * index are collected. The body is never held whole.
 */
async function scanSitemap(
  res: Response,
  at: string,
  addPage: (url: string) => boolean,
): Promise<SitemapScan | FetchFailure> {
  const scan: SitemapScan = {
    status: res.status,
    root: null,
    children: [],
    dropped: 0,
    invalid: 0,
  };
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    return scan;
  }
  const scanner = new SitemapScanner();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  try {
    for (let more = true; more;) {
      const { done, value } = await reader.read();
      bytes += value?.byteLength ?? 0;
      if (bytes > MAX_SITEMAP_BYTES) {
        return { ok: false, gone: false, reason: `larger than ${MAX_SITEMAP_BYTES} bytes` };
      }
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (const loc of scanner.feed(text)) {
        const abs = URL.parse(loc, at)?.href;
        if (!abs) scan.invalid++;
        else if (scanner.root !== "sitemapindex") more &&= addPage(abs);
        else if (scan.children.length < MAX_CHILD_SITEMAPS) scan.children.push(abs);
        else scan.dropped++;
        if (!more) break;
      }
      scan.root = scanner.root;
      if (done || scanner.root === "other") more = false;
    }
  } catch (error) {
    if (!(error instanceof SitemapSyntaxError)) throw error;
    scan.root = "other";
    scan.why = error.message;
  } finally {
    await reader.cancel().catch(() => {});
  }
  return scan;
}
