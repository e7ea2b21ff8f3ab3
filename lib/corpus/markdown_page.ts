/**
 * The Markdown of a public page, for agents: `/sobre/<slug>.md` (or `/en/about/<slug>.md`),
 * or the page's own URL asked for with `Accept: text/markdown`. The text is the file the
 * search index was built from (lib/corpus/public_docs.ts), so an internal document has no
 * Markdown page either.
 */
import type { PublicDocs } from "./public_docs.ts";

/** The Content-Type of every Markdown answer. */
export const MARKDOWN_TYPE = "text/markdown; charset=utf-8";

/** The quality (0–1) `accept` gives `type`: the best matching range, exact beats wildcard. */
function quality(accept: string, type: string): number {
  const [major] = type.split("/");
  let best = -1;
  let q = 0;
  for (const range of accept.split(",")) {
    const [name, ...params] = range.trim().toLowerCase().split(";");
    const rank = name === type ? 3 : name === `${major}/*` ? 2 : name === "*/*" ? 1 : 0;
    if (rank <= best || rank === 0) continue;
    best = rank;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q = Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
  }
  return q;
}

/** Whether the request prefers Markdown to HTML (an explicit `text/markdown` at least as wanted). */
export function prefersMarkdown(req: Request): boolean {
  const accept = req.headers.get("accept") ?? "";
  if (!/text\/markdown/i.test(accept)) return false;
  const markdown = quality(accept, "text/markdown");
  return markdown > 0 && markdown >= quality(accept, "text/html");
}

/**
 * The Markdown answer for a page route, or null when the request wants the HTML page.
 * `prefix` is the route's folder (`/sobre/`), `slug` its parameter; a slug ending in `.md`
 * names the Markdown version. An unknown or internal page is a plain-text 404.
 */
export async function markdownPage(
  req: Request,
  prefix: string,
  slug: string,
  docs: PublicDocs,
): Promise<Response | null> {
  const suffixed = slug.endsWith(".md");
  if (!suffixed && !prefersMarkdown(req)) return null;
  const path = prefix + (suffixed ? slug.slice(0, -3) : slug);
  const doc = await docs.byPath(path);
  if (!doc) {
    return new Response(`No page at "${path}". The list of pages is at /llms.txt.\n`, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", Vary: "Accept" },
    });
  }
  return new Response(doc.markdown, {
    headers: {
      "Content-Type": MARKDOWN_TYPE,
      "Cache-Control": "public, max-age=300",
      "Content-Language": doc.lang === "en" ? "en" : "pt-BR",
      "X-Content-Type-Options": "nosniff",
      // The same URL answers HTML or Markdown by Accept: caches must keep them apart.
      Vary: "Accept",
    },
  });
}
