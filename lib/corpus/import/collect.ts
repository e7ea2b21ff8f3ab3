/**
 * Turns a source's items into candidate documents: files of a folder read from
 * disk, pages of a live site fetched under the fetch policy. Every item that
 * does not become a candidate leaves a report line saying why.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseRobots } from "./robots.ts";
import { extractPage } from "./extract.ts";
import type { PageFetcher } from "./fetch_policy.ts";
import { readMarkdownMeta } from "./markdown_source.ts";
import { toMarkdown } from "./to_markdown.ts";
import type { ReportEntry } from "./types.ts";

/** A page read and converted, before language, license and boilerplate are settled. */
export interface Candidate {
  origin: string;
  url: string | null;
  title: string;
  declaredLang: string;
  license: string;
  markdown: string;
  verbatim: boolean;
}

/** What collecting gives: candidates, report lines, and origins to keep as they are. */
export interface Collected {
  candidates: Candidate[];
  entries: ReportEntry[];
  /** Origins that failed for a passing reason (timeout, 5xx…): earlier versions stay. */
  transient: Set<string>;
}

/** The URL path a built file is served at ("docs/index.html" → "/docs/"). */
export function servedPath(rel: string): string {
  return "/" + rel.replace(/(^|\/)index\.html?$/i, "$1").replace(/\.(mdx?)$/i, "");
}

/** Reads the files `rels` of `dir`. `baseUrl` (optional) makes their URLs absolute. */
export function collectFolder(dir: string, rels: readonly string[], baseUrl?: string): Collected {
  const out: Collected = { candidates: [], entries: [], transient: new Set() };
  const robotsFile = join(dir, "robots.txt");
  const robots = existsSync(robotsFile)
    ? parseRobots("http://folder.invalid/robots.txt", readFileSync(robotsFile, "utf8"))
    : null;
  const base = baseUrl ? new URL(baseUrl.replace(/\/?$/, "/")) : null;
  const urlOf = (path: string) => base ? new URL(path.slice(1), base).href : path;
  for (const rel of rels) {
    const skip = (why: string) => out.entries.push({ kind: "skipped", target: rel, detail: why });
    const path = servedPath(rel);
    if (robots?.isDisallowed(`http://folder.invalid${path}`, "*")) {
      skip("disallowed by the folder's robots.txt");
      continue;
    }
    const text = readFileSync(join(dir, rel), "utf8");
    if (/\.mdx?$/i.test(rel)) {
      try {
        const meta = readMarkdownMeta(text);
        if (meta.skip) {
          skip(meta.skip);
          continue;
        }
        const url = meta.url ? (base ? new URL(meta.url, base).href : meta.url) : urlOf(path);
        out.candidates.push({
          origin: rel,
          url,
          title: meta.title || rel,
          declaredLang: meta.lang,
          license: meta.license,
          markdown: text,
          verbatim: true,
        });
      } catch (error) {
        skip((error as Error).message);
      }
      continue;
    }
    const pageUrl = base ? urlOf(path) : `file://${path}`;
    const c = htmlCandidate(text, rel, pageUrl, skip);
    if (c) out.candidates.push({ ...c, url: c.url ?? urlOf(path) });
  }
  return out;
}

/** An HTML page as a candidate, or null after reporting why not (noindex, no content…). */
function htmlCandidate(
  html: string,
  origin: string,
  pageUrl: string,
  skip: (why: string) => void,
): Candidate | null {
  let page;
  try {
    page = extractPage(html, pageUrl);
  } catch (error) {
    skip((error as Error).message);
    return null;
  }
  if (page.noindex) {
    skip("noindex (robots meta tag)");
    return null;
  }
  const canonical = page.canonical?.startsWith("file:") ? null : page.canonical;
  return {
    origin,
    url: canonical ?? (pageUrl.startsWith("file:") ? null : pageUrl),
    title: page.title || origin,
    declaredLang: page.lang,
    license: page.license,
    markdown: toMarkdown(page.html, page.title || origin),
    verbatim: false,
  };
}

/** Fetches `urls` (at the fetcher's pace) and reads each answer. */
export async function collectWeb(
  urls: readonly string[],
  fetcher: PageFetcher,
): Promise<Collected> {
  const out: Collected = { candidates: [], entries: [], transient: new Set() };
  const results = await Promise.all(urls.map((u) => fetcher.get(u)));
  for (const [i, res] of results.entries()) {
    const origin = urls[i];
    const skip = (why: string) =>
      out.entries.push({ kind: "skipped", target: origin, detail: why });
    if (!res.ok) {
      if (!res.gone) out.transient.add(origin);
      skip(res.reason);
      continue;
    }
    if (res.status !== 200) {
      if (res.status !== 404 && res.status !== 410) out.transient.add(origin);
      skip(`status ${res.status}`);
      continue;
    }
    if (!/^(text\/html|application\/xhtml\+xml)\b/i.test(res.contentType)) {
      skip(`not HTML (content-type "${res.contentType || "none"}")`);
      continue;
    }
    if (/\b(noindex|none)\b/i.test(res.headers.get("x-robots-tag") ?? "")) {
      skip("noindex (X-Robots-Tag header)");
      continue;
    }
    const c = htmlCandidate(res.text, origin, res.url, skip);
    if (c) out.candidates.push(c);
  }
  return out;
}
