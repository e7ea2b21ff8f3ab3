/**
 * What an import reads: a folder (built HTML and markdown files), a sitemap
 * (a sitemap index followed to its sitemaps, same host only) or a text file
 * listing page URLs. Each yields the list of items to import; a source that
 * cannot be read at all throws SourceError, before anything is written.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { DOMParser } from "linkedom";
import picomatch from "picomatch";
import type { PageFetcher } from "./fetch_policy.ts";
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

/** The page URLs of a sitemap, following a sitemap index (depth ≤ 3), with notes for the report. */
export async function readSitemap(
  url: string,
  fetcher: PageFetcher,
): Promise<{ urls: string[]; notes: ReportEntry[] }> {
  const notes: ReportEntry[] = [];
  const urls = new Set<string>();
  const seen = new Set<string>();
  const visit = async (at: string, depth: number, root: boolean): Promise<void> => {
    if (seen.has(at)) return;
    seen.add(at);
    const res = await fetcher.get(at, { robots: false, maxBytes: 50 * 1024 * 1024 });
    const fail = !res.ok ? res.reason : res.status !== 200 ? `status ${res.status}` : null;
    const locs = fail ? null : parseSitemap(res.ok ? res.text : "");
    if (fail || !locs) {
      const why = fail ?? "not a sitemap (no <urlset> or <sitemapindex> root)";
      if (root) throw new SourceError(`Sitemap "${at}" is unusable: ${why}; nothing was imported`);
      notes.push({ kind: "error", target: at, detail: `sitemap unusable: ${why}` });
      return;
    }
    if (locs.index) {
      notes.push({
        kind: "note",
        target: at,
        detail: `sitemap index of ${locs.locs.length} sitemaps`,
      });
      if (depth >= 3) {
        notes.push({
          kind: "error",
          target: at,
          detail: "sitemap indexes nested too deep; ignored",
        });
        return;
      }
      for (const child of locs.locs) await visit(new URL(child, at).href, depth + 1, false);
      return;
    }
    for (const loc of locs.locs) urls.add(new URL(loc, at).href);
  };
  await visit(url, 0, true);
  if (!urls.size) throw new SourceError(`Sitemap "${url}" lists no page; nothing was imported`);
  return { urls: [...urls], notes };
}

/** `<loc>`s of a sitemap document, or null when it is not one. */
export function parseSitemap(xml: string): { index: boolean; locs: string[] } | null {
  let doc;
  try {
    doc = new DOMParser().parseFromString(xml, "text/xml");
  } catch {
    return null;
  }
  const root = doc.documentElement?.localName?.toLowerCase();
  if (root !== "urlset" && root !== "sitemapindex") return null;
  const locs = [...doc.getElementsByTagName("loc")]
    .map((l) => (l.textContent ?? "").trim())
    .filter(Boolean);
  return { index: root === "sitemapindex", locs };
}
