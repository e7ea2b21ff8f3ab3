/**
 * Turns a source's items into candidate documents: files of a folder read from
 * disk, pages of a live site fetched under the fetch policy. Every item that
 * does not become a candidate leaves a report line saying why. Each page is
 * read under the page budget; a fetched page's HTML is dropped as soon as it
 * is converted, so memory holds markdown, not every page at once.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseRobots } from "./robots.ts";
import { extractPage, PageBudgetError } from "./extract.ts";
import type { Fetched, FetchFailure, PageFetcher } from "./fetch_policy.ts";
import { DEFAULT_PAGE_BUDGET, type PageBudget } from "./page_budget.ts";
import { readMarkdownMeta } from "./markdown_source.ts";
import { toMarkdown } from "./to_markdown.ts";
import { sourceLink } from "@/lib/text/source_link.ts";
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

/**
 * Reads the files `rels` of `dir`. `baseUrl` (optional) makes their URLs
 * absolute; a file over `budget.maxBytes` is skipped unread.
 */
export function collectFolder(
  dir: string,
  rels: readonly string[],
  baseUrl?: string,
  budget: Readonly<PageBudget> = DEFAULT_PAGE_BUDGET,
): Collected {
  const out: Collected = { candidates: [], entries: [], transient: new Set() };
  const robotsFile = join(dir, "robots.txt");
  const robots = existsSync(robotsFile)
    ? parseRobots("http://folder.invalid/robots.txt", readFileSync(robotsFile, "utf8"))
    : null;
  const base = baseUrl ? new URL(baseUrl.replace(/\/?$/, "/")) : null;
  const urlOf = (path: string) => base ? new URL(path.slice(1), base).href : path;
  for (const rel of rels) {
    const skip = (why: string) => out.entries.push({ kind: "skipped", target: rel, detail: why });
    const note = (why: string) => out.entries.push({ kind: "note", target: rel, detail: why });
    const path = servedPath(rel);
    if (robots?.isDisallowed(`http://folder.invalid${path}`, "*")) {
      skip("disallowed by the folder's robots.txt");
      continue;
    }
    if (statSync(join(dir, rel)).size > budget.maxBytes) {
      skip(`larger than the size cap of ${budget.maxBytes} bytes`);
      out.transient.add(rel);
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
        const own = meta.url ? ownUrl(meta.url, base) : null;
        if (meta.url && !own) note(ignoredUrl("permalink", meta.url));
        const url = own ?? urlOf(path);
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
    const c = htmlCandidate(text, rel, pageUrl, budget);
    if ("skip" in c) {
      skip(c.skip);
      if (c.transient) out.transient.add(rel);
      continue;
    }
    if (c.note) note(c.note);
    out.candidates.push({ ...c.candidate, url: c.candidate.url ?? urlOf(path) });
  }
  return out;
}

/**
 * Why a page is not a candidate. `transient`: the earlier version stays (a
 * passing failure, or a page over the size or work budget, like the fetch's size cap).
 */
interface Skip {
  skip: string;
  transient: boolean;
}

/** A page read as a candidate, with a note for the report when its canonical link was refused. */
interface Read {
  candidate: Candidate;
  note?: string;
}

/** An HTML page as a candidate, or why not (noindex, no content, over the budget…). */
function htmlCandidate(
  html: string,
  origin: string,
  pageUrl: string,
  budget: Readonly<PageBudget>,
): Read | Skip {
  let page;
  try {
    page = extractPage(html, pageUrl, budget);
  } catch (error) {
    return { skip: (error as Error).message, transient: error instanceof PageBudgetError };
  }
  if (page.noindex) return { skip: "noindex (robots meta tag)", transient: false };
  const canonical = page.canonical ? ownUrl(page.canonical, pageUrl) : null;
  const candidate: Candidate = {
    origin,
    url: canonical ?? (pageUrl.startsWith("file:") ? null : pageUrl),
    title: page.title || origin,
    declaredLang: page.lang,
    license: page.license,
    markdown: toMarkdown(page.html, page.title || origin),
    verbatim: false,
  };
  return page.canonical && !canonical
    ? { candidate, note: ignoredUrl("canonical link", page.canonical) }
    : { candidate };
}

/**
 * `url` (a canonical link, a permalink) when it is an http(s) URL of the
 * import's own origin — `base`'s — else null. A folder without a base URL
 * (`base` null or a file: URL) has no origin: only a root-relative path is its own.
 */
function ownUrl(url: string, base: URL | string | null): string | null {
  const at = base === null ? "" : String(base);
  if (!at || at.startsWith("file:")) return /^\/(?![/\\])/.test(url) ? url : null;
  let resolved: string;
  try {
    resolved = new URL(url, at).href;
  } catch {
    return null;
  }
  return sourceLink(resolved, at);
}

const ignoredUrl = (what: string, url: string) =>
  `${what} "${url}" ignored: not an http(s) URL of the site's own origin`;

/** What one URL gave: a candidate, or a report line (and whether the failure may pass). */
type WebOutcome = Read | Skip;

/**
 * Fetches `urls` (at the fetcher's pace) and reads each answer as it comes,
 * so only the pages in flight are held as HTML.
 */
export async function collectWeb(
  urls: readonly string[],
  fetcher: PageFetcher,
  budget: Readonly<PageBudget> = DEFAULT_PAGE_BUDGET,
): Promise<Collected> {
  const outcomes: WebOutcome[] = new Array(urls.length);
  let next = 0;
  // As many lanes as the fetcher lets run at once: no promise per URL waits in a queue.
  const lane = async () => {
    for (let i = next++; i < urls.length; i = next++) {
      outcomes[i] = readAnswer(urls[i], await fetcher.get(urls[i]), budget);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, fetcher.concurrency) }, lane));
  const out: Collected = { candidates: [], entries: [], transient: new Set() };
  outcomes.forEach((o, i) => {
    if ("candidate" in o) {
      if (o.note) out.entries.push({ kind: "note", target: urls[i], detail: o.note });
      return void out.candidates.push(o.candidate);
    }
    if (o.transient) out.transient.add(urls[i]);
    out.entries.push({ kind: "skipped", target: urls[i], detail: o.skip });
  });
  return out;
}

/** One fetched answer as a candidate or a skip. */
function readAnswer(
  origin: string,
  res: Fetched | FetchFailure,
  budget: Readonly<PageBudget>,
): WebOutcome {
  if (!res.ok) return { skip: res.reason, transient: !res.gone };
  if (res.status !== 200) {
    return { skip: `status ${res.status}`, transient: res.status !== 404 && res.status !== 410 };
  }
  if (!/^(text\/html|application\/xhtml\+xml)\b/i.test(res.contentType)) {
    return { skip: `not HTML (content-type "${res.contentType || "none"}")`, transient: false };
  }
  if (/\b(noindex|none)\b/i.test(res.headers.get("x-robots-tag") ?? "")) {
    return { skip: "noindex (X-Robots-Tag header)", transient: false };
  }
  return htmlCandidate(res.text, origin, res.url, budget);
}
