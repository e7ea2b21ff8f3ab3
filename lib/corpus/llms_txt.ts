/**
 * `/llms.txt` and `/llms-full.txt` (the llmstxt.org layout) from the public documents:
 * the first lists every public page with a link to its Markdown, the second holds every
 * public page's Markdown in full. Internal documents are never in `PublicDoc` lists, so
 * neither file can name or quote them.
 */
import type { PublicDoc } from "./public_docs.ts";

/** What both files say about the site. */
export interface LlmsSite {
  name: string;
  /** Absolute origin the links start with, e.g. `https://example.com`. */
  origin: string;
  /** Whether `/mcp` answers, so the file can point agents at it. */
  mcp: boolean;
}

const SECTION: Record<PublicDoc["lang"], string> = {
  pt: "Páginas em português",
  en: "Pages in English",
};

/** The Markdown version of a page: its URL with `.md` appended. */
export function markdownUrl(doc: Pick<PublicDoc, "url">, origin: string): string {
  return `${origin}${doc.url}.md`;
}

/**
 * `/llms.txt`: a title, a one-line summary, then one link per public page, grouped by
 * language, in manifest order.
 */
export function llmsTxt(docs: readonly PublicDoc[], site: LlmsSite): string {
  const lines = [
    `# ${site.name}`,
    "",
    "> Curated pages of this site, each available as Markdown. " +
    "Páginas do site, cada uma também em Markdown.",
    "",
    `- Full text of every page / texto completo: ${site.origin}/llms-full.txt`,
  ];
  if (site.mcp) {
    lines.push(
      `- MCP server (Streamable HTTP; tools search_site, fetch_page, ask_site): ${site.origin}/mcp`,
    );
  }
  for (const lang of ["pt", "en"] as const) {
    const ofLang = docs.filter((d) => d.lang === lang);
    if (!ofLang.length) continue;
    lines.push("", `## ${SECTION[lang]}`, "");
    for (const doc of ofLang) {
      lines.push(`- [${linkText(doc.title)}](${markdownUrl(doc, site.origin)})`);
    }
  }
  return lines.join("\n") + "\n";
}

/** `/llms-full.txt`: every public page's Markdown, each under its title and address. */
export function llmsFullTxt(docs: readonly PublicDoc[], site: LlmsSite): string {
  const parts = docs.map((doc) =>
    [
      `Source: ${site.origin}${doc.url} (${doc.lang}, ${doc.license})`,
      "",
      doc.markdown.trim(),
    ].join("\n")
  );
  return `# ${site.name}\n\n${parts.join("\n\n---\n\n")}\n`;
}

/** A title safe inside `[…]`. */
function linkText(title: string): string {
  return title.replace(/[\[\]\\]/g, "\\$&").replace(/\s+/g, " ");
}
