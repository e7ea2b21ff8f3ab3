/**
 * The public documents of the corpus as Markdown: what `/llms.txt`, `<page>.md` and the MCP
 * tool `fetch_page` serve. A document is public only when its manifest entry has a `url`;
 * an internal one (`url: null`) is not found by path, by id or in the list, so none of these
 * routes can reach its text. The Markdown is the file the index was built from, its front
 * matter dropped as the chunker drops it.
 *
 * @example
 * const docs = createPublicDocs();
 * const doc = await docs.byPath("/sobre/como-funciona"); // null for an internal or unknown page
 */
import { fileURLToPath } from "node:url";
import { type CorpusDocument, loadCorpus } from "@/lib/search/manifest.ts";

// Not pages.ts's constant: importing it would load markdown-it for a plain text route.
const CORPUS_DIR = fileURLToPath(new URL("../../corpus/", import.meta.url));

/** A public corpus document. */
export interface PublicDoc {
  id: string;
  /** Root-relative page URL, e.g. `/sobre/como-funciona`. */
  url: string;
  title: string;
  lang: "pt" | "en";
  source: string;
  license: string;
  /** The document's Markdown, without front matter. */
  markdown: string;
}

/** Lookups over the public documents; the corpus is read (and checked) on the first call. */
export interface PublicDocs {
  /** Every public document, in manifest order. */
  all(): Promise<PublicDoc[]>;
  /** The document whose url is `path` (no query or hash), or null. */
  byPath(path: string): Promise<PublicDoc | null>;
  /** The document with manifest id `id`, or null (internal ones included in the null). */
  byId(id: string): Promise<PublicDoc | null>;
}

/** Front matter, as the chunker and the page renderer drop it. */
const FRONT_MATTER = /^---\n[\s\S]*?\n---\n/;

function toPublic(doc: CorpusDocument): PublicDoc | null {
  if (typeof doc.url !== "string" || !doc.url.startsWith("/")) return null;
  return {
    id: doc.id,
    url: doc.url,
    title: doc.title,
    lang: doc.lang === "en" ? "en" : "pt",
    source: doc.source,
    license: doc.license,
    markdown: doc.markdown.replace(FRONT_MATTER, ""),
  };
}

/** Builds the lookups over `corpusDir` (default: this deploy's corpus/). A failed read is retried. */
export function createPublicDocs(corpusDir: string = CORPUS_DIR): PublicDocs {
  let docs: Promise<PublicDoc[]> | null = null;
  const load = () => {
    docs ??= loadCorpus(corpusDir).then(
      (list) => list.flatMap((d) => toPublic(d) ?? []),
      (error) => {
        docs = null;
        throw error;
      },
    );
    return docs;
  };
  return {
    all: load,
    byPath: async (path) => (await load()).find((d) => d.url === path) ?? null,
    byId: async (id) => (await load()).find((d) => d.id === id) ?? null,
  };
}

/** The public documents of this deploy, shared by the routes and the MCP server. */
export const publicDocs: PublicDocs = createPublicDocs();
