/**
 * The MCP tool `search_site`: the site search's ranked passages, public ones only. A passage
 * of an internal document (no public URL) or whose URL leaves the site's origins is dropped,
 * never shown: the same rule the chat's search tool keeps for what leaves the server.
 */
import type { Passage, SiteSearch } from "@/lib/search/types.ts";

/** Arguments of `search_site`, validated by the server's schema. */
export interface SearchArgs {
  query: string;
  language?: "pt" | "en";
  top_k?: number;
}

/** One passage as the tool returns it. */
export interface SearchHit {
  rank: number;
  title: string;
  /** Absolute URL of the page with the passage's section anchor. */
  url: string;
  /** The section anchor (`#…`), or "" for a passage of a page's first section. */
  anchor: string;
  lang: string;
  text: string;
  score: number;
}

/** What `search_site` returns (its `structuredContent`). */
export interface SearchReply {
  [key: string]: unknown;
  mode: "hybrid" | "lexical";
  passages: SearchHit[];
}

/** Most passages one call may ask for. */
export const MAX_TOP_K = 20;
/** Passages when `top_k` is not given (as the chat's search). */
export const DEFAULT_TOP_K = 5;

/**
 * The absolute URL of a passage when it is a page of the site (`origin` or one of
 * `siteOrigins`), else null: a manifest edited by hand could hold any URL.
 */
export function publicPassageUrl(
  url: string | null,
  origin: string,
  siteOrigins: readonly string[],
): URL | null {
  if (url === null) return null;
  let abs: URL;
  try {
    abs = new URL(url, origin);
  } catch {
    return null;
  }
  if (abs.protocol !== "https:" && abs.protocol !== "http:") return null;
  return abs.origin === origin || siteOrigins.includes(abs.origin) ? abs : null;
}

/** Runs one search. A language filter asks the index for more, then keeps that language. */
export async function searchSite(
  search: SiteSearch,
  args: SearchArgs,
  site: { origin: string; siteOrigins: readonly string[] },
): Promise<SearchReply> {
  const k = args.top_k ?? DEFAULT_TOP_K;
  const wanted = args.language ? Math.min(k * 4, 4 * MAX_TOP_K) : k;
  const result = await search.search(args.query, { k: wanted });
  const hits: SearchHit[] = [];
  for (const p of result.passages) {
    if (hits.length >= k) break;
    if (args.language && p.lang !== args.language) continue;
    const hit = toHit(p, hits.length + 1, site);
    if (hit) hits.push(hit);
  }
  return { mode: result.mode, passages: hits };
}

function toHit(
  p: Passage,
  rank: number,
  site: { origin: string; siteOrigins: readonly string[] },
): SearchHit | null {
  // `n` is the search's own mark of a citable passage: internal ones never carry it.
  if (p.n === undefined) return null;
  const url = publicPassageUrl(p.url, site.origin, site.siteOrigins);
  if (!url) return null;
  return {
    rank,
    title: p.title,
    url: url.href,
    anchor: url.hash,
    lang: p.lang,
    text: p.text,
    score: Number(p.score.toFixed(6)),
  };
}

/** The reply as text for the model: one block per passage. */
export function searchReplyText(reply: SearchReply): string {
  if (!reply.passages.length) return "Nothing on the site matches this query.";
  return reply.passages
    .map((p) => `[${p.rank}] ${p.title}\n${p.url}\n${p.text}`)
    .join("\n\n");
}
