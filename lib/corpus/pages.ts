/**
 * The public pages of the corpus: each manifest document with a `url` becomes
 * an HTML page at that path. Heading ids come from the search's own slugger,
 * one per page in document order, so a passage URL `/sobre/x#anchor` from the
 * index lands on the heading the passage came from.
 *
 * @example
 * const pages = createDocPages();
 * const page = await pages.get("/sobre/como-funciona"); // null when there is no such page
 */
import { fileURLToPath } from "node:url";
import MarkdownIt from "markdown-it";
import { inlineText } from "@/lib/search/chunker.ts";
import { type CorpusDocument, loadCorpus } from "@/lib/search/manifest.ts";
import { createSlugger } from "@/lib/search/mod.ts";

/** The corpus folder of this deploy. */
export const DEFAULT_CORPUS_DIR: string = fileURLToPath(new URL("../../corpus/", import.meta.url));

/**
 * The same topic in the other language, by manifest id (pt → en). The
 * corpus README asks for these five pages to be kept translated.
 */
export const TRANSLATIONS: Readonly<Record<string, string>> = {
  "como-funciona": "en-how-it-works",
  "respostas-em-tempo-real": "en-streaming",
  "busca-e-citacoes": "en-search-and-citations",
  "aprovacoes": "en-approvals",
  "seus-dados": "en-your-data",
};

/** A heading of a page. */
export interface DocHeading {
  level: number;
  id: string;
  text: string;
}

/** A link to the other-language version of a page. */
export interface DocAlternate {
  url: string;
  title: string;
  lang: "pt" | "en";
}

/** A rendered corpus page: everything the page component needs, serialisable. */
export interface DocPageData {
  id: string;
  url: string;
  title: string;
  lang: "pt" | "en";
  source: string;
  license: string;
  /** The document's HTML (raw HTML in the markdown is escaped, not passed through). */
  html: string;
  /** Every heading with its id, in document order. */
  headings: DocHeading[];
  alternate: DocAlternate | null;
}

/** Options of `createDocPages`. */
export interface DocPagesOptions {
  /** The corpus folder (default: corpus/ of this repository). */
  corpusDir?: string;
}

/** The corpus pages, read and rendered once. */
export interface DocPages {
  /** The page whose manifest url is `path` (no query or hash), or null. */
  get(path: string): Promise<DocPageData | null>;
  /** Every public page, in manifest order. */
  all(): Promise<DocPageData[]>;
}

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

// Heading ids, as the chunker sees headings: ATX headings (`## …`) outside
// blockquotes, in document order, each slugged by the page's own slugger.
// Setext headings and quoted ones are not sections for the chunker, so they get
// no id: slugging them would shift the "-1" suffixes of later duplicates.
//
// Each top-level heading also opens a `<section class="doc-section">` that runs
// to the next heading: the span of text a passage with that anchor came from,
// which the stylesheet highlights when the URL targets its heading.
md.core.ruler.push("heading_sections", (state) => {
  const env = state.env as unknown as RenderEnv;
  const out: typeof state.tokens = [];
  let quoted = 0;
  let open = false;
  const html = (content: string) => {
    const t = new state.Token("html_block", "", 0);
    t.content = content;
    return t;
  };
  for (const [i, token] of state.tokens.entries()) {
    if (token.type === "blockquote_open") quoted++;
    else if (token.type === "blockquote_close") quoted--;
    else if (token.type === "heading_open" && token.markup.startsWith("#") && quoted === 0) {
      const text = inlineText(state.tokens[i + 1]?.content ?? "");
      const id = env.slug(text);
      token.attrSet("id", id);
      env.headings.push({ level: Number(token.tag.slice(1)), id, text });
      if (token.level === 0) {
        if (open) out.push(html("</section>\n"));
        out.push(html(`<section class="doc-section">\n`));
        open = true;
      }
    }
    out.push(token);
  }
  if (open) out.push(html("</section>\n"));
  state.tokens = out;
});

// Links to other origins open in a new tab and pass nothing to the opened page.
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx];
  if (isOtherOrigin(String(token.attrGet("href") ?? ""))) {
    token.attrSet("target", "_blank");
    token.attrSet("rel", "noopener noreferrer");
  }
  return self.renderToken(tokens, idx, options);
};

interface RenderEnv {
  slug: (text: string) => string;
  headings: DocHeading[];
}

/** Whether `href` leaves the site: an absolute or protocol-relative URL (mailto: included). */
export function isOtherOrigin(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//");
}

/**
 * Renders one document's markdown: HTML plus its headings. Front matter is
 * dropped as the chunker drops it, so both see the same headings in the same order.
 */
export function renderDoc(markdown: string): { html: string; headings: DocHeading[] } {
  const env: RenderEnv = { slug: createSlugger(), headings: [] };
  const body = markdown.replace(/^---\n[\s\S]*?\n---\n/, "");
  const html = md.render(body, env as unknown as Record<string, unknown>);
  return { html, headings: env.headings };
}

function toPage(doc: CorpusDocument, byId: Map<string, CorpusDocument>): DocPageData {
  const { html, headings } = renderDoc(doc.markdown);
  const otherId = TRANSLATIONS[doc.id] ??
    Object.keys(TRANSLATIONS).find((pt) => TRANSLATIONS[pt] === doc.id);
  const other = otherId ? byId.get(otherId) : undefined;
  return {
    id: doc.id,
    url: doc.url!,
    title: doc.title,
    lang: doc.lang === "en" ? "en" : "pt",
    source: doc.source,
    license: doc.license,
    html,
    headings,
    alternate: other?.url
      ? { url: other.url, title: other.title, lang: other.lang === "en" ? "en" : "pt" }
      : null,
  };
}

/**
 * The corpus pages. The manifest is read and checked (checksums included) on
 * the first call; each page is rendered on its first request and kept, since
 * the corpus is fixed for a deploy. A failed read is retried on the next call.
 */
export function createDocPages(options: DocPagesOptions = {}): DocPages {
  const dir = options.corpusDir ?? DEFAULT_CORPUS_DIR;
  let corpus: Promise<Map<string, CorpusDocument>> | null = null;
  const rendered = new Map<string, DocPageData>();

  function docs(): Promise<Map<string, CorpusDocument>> {
    corpus ??= loadCorpus(dir).then(
      (list) => new Map(list.map((d) => [d.id, d])),
      (error) => {
        corpus = null;
        throw error;
      },
    );
    return corpus;
  }

  function page(doc: CorpusDocument, byId: Map<string, CorpusDocument>): DocPageData {
    let p = rendered.get(doc.id);
    if (!p) rendered.set(doc.id, p = toPage(doc, byId));
    return p;
  }

  return {
    async get(path) {
      const byId = await docs();
      for (const doc of byId.values()) {
        if (doc.url !== null && doc.url === path) return page(doc, byId);
      }
      return null;
    },
    async all() {
      const byId = await docs();
      return [...byId.values()].filter((d) => d.url !== null).map((d) => page(d, byId));
    },
  };
}

/** The pages of this deploy's corpus, shared by the /sobre and /en/about routes. */
export const docPages: DocPages = createDocPages();

/** hreflang links of a page that exists in both languages (itself included); none otherwise. */
export function docAlternates(page: DocPageData): Array<{ hreflang: string; href: string }> {
  if (!page.alternate) return [];
  const tag = (lang: "pt" | "en") => lang === "en" ? "en" : "pt-BR";
  return [
    { hreflang: tag(page.lang), href: page.url },
    { hreflang: tag(page.alternate.lang), href: page.alternate.url },
  ];
}
