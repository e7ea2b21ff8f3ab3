/**
 * The MCP tool `fetch_page`: a public page's Markdown by URL or id, in parts of at most
 * `PART_CHARS` characters cut at paragraph breaks. Only public documents can be found
 * (lib/corpus/public_docs.ts): an internal one answers exactly like a page that does not exist.
 */
import type { PublicDoc, PublicDocs } from "@/lib/corpus/public_docs.ts";
import { publicPassageUrl } from "./search_tool.ts";

/** Arguments of `fetch_page`, validated by the server's schema. */
export interface FetchArgs {
  url?: string;
  id?: string;
  page?: number;
}

/** What `fetch_page` returns (its `structuredContent`). */
export interface FetchReply {
  [key: string]: unknown;
  id: string;
  url: string;
  title: string;
  lang: string;
  page: number;
  pages: number;
  markdown: string;
}

/** Most characters of Markdown one call returns. */
export const PART_CHARS = 12_000;

/** A tool call the caller can fix: the message says how. */
export class FetchPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FetchPageError";
  }
}

/** Splits `text` into parts of at most `max` characters, at a blank line when there is one. */
export function splitMarkdown(text: string, max: number = PART_CHARS): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const cut = rest.lastIndexOf("\n\n", max);
    const at = cut > max / 2 ? cut + 2 : max;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest.length || !parts.length) parts.push(rest);
  return parts;
}

/** Finds the page `args` name; a bad or unknown name is a `FetchPageError` saying what to send. */
async function findDoc(
  docs: PublicDocs,
  args: FetchArgs,
  site: { origin: string; siteOrigins: readonly string[] },
): Promise<PublicDoc> {
  if ((args.url === undefined) === (args.id === undefined)) {
    throw new FetchPageError("Give exactly one of `url` or `id`.");
  }
  if (args.id !== undefined) {
    const doc = await docs.byId(args.id);
    if (!doc) throw new FetchPageError(`No public page has id "${args.id}". ${FIND_HINT}`);
    return doc;
  }
  const url = publicPassageUrl(args.url!, site.origin, site.siteOrigins);
  if (!url) {
    throw new FetchPageError(`"${args.url}" is not a page of this site (${site.origin}).`);
  }
  const path = url.pathname.replace(/\.md$/, "");
  const doc = await docs.byPath(path);
  if (!doc) throw new FetchPageError(`No public page at "${path}". ${FIND_HINT}`);
  return doc;
}

const FIND_HINT = "Find pages with search_site, or read the list at /llms.txt.";

/** Reads part `args.page` (default 1) of the page `args` names. */
export async function fetchPage(
  docs: PublicDocs,
  args: FetchArgs,
  site: { origin: string; siteOrigins: readonly string[] },
): Promise<FetchReply> {
  const doc = await findDoc(docs, args, site);
  const parts = splitMarkdown(doc.markdown);
  const page = args.page ?? 1;
  if (page > parts.length) {
    throw new FetchPageError(
      `Page "${doc.url}" has ${parts.length} part(s): ask for page 1 to ${parts.length}.`,
    );
  }
  return {
    id: doc.id,
    url: new URL(doc.url, site.origin).href,
    title: doc.title,
    lang: doc.lang,
    page,
    pages: parts.length,
    markdown: parts[page - 1],
  };
}

/** The reply as text: the Markdown, then where the next part is when there is one. */
export function fetchReplyText(reply: FetchReply): string {
  const more = reply.page < reply.pages
    ? `\n\n[Part ${reply.page} of ${reply.pages}: call fetch_page with page ${
      reply.page + 1
    } for the rest.]`
    : "";
  return reply.markdown + more;
}
