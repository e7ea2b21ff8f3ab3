/**
 * What agents read about this MCP server: the server instructions and the tool
 * descriptions, in the site's language (Brazilian Portuguese) and English, since an agent
 * may be asked in either.
 */

/** The server instructions sent with `initialize`. */
export function serverInstructions(siteName: string): string {
  return [
    `This server answers from the curated pages of "${siteName}" (Portuguese and English).`,
    "Use search_site to find passages (each with its page URL and anchor), fetch_page to read a " +
    "whole page as Markdown, and ask_site for a short answer that cites those pages as [N]. " +
    "Quote and link the URLs the tools return; the site has no other public pages.",
    `Este servidor responde com as páginas do site "${siteName}" (português e inglês).`,
    "Use search_site para achar trechos (cada um com o endereço e a âncora da página), " +
    "fetch_page para ler uma página inteira em Markdown e ask_site para uma resposta curta que " +
    "cita essas páginas como [N]. Cite e linke os endereços que as ferramentas devolvem.",
  ].join("\n");
}

/** Tool descriptions (English first, then Portuguese). */
export const TOOL_TEXT = {
  search_site: {
    title: "Search the site / Pesquisar o site",
    description:
      "Search this site's pages. Returns ranked passages: title, page URL with the anchor of " +
      "the passage's section, the exact passage text, language and score. Ask in Portuguese or " +
      "English; `language` keeps only passages of that language. " +
      "Pesquisa as páginas do site e devolve os trechos mais relevantes, com título, endereço " +
      "(com âncora) e o texto exato de cada trecho.",
  },
  fetch_page: {
    title: "Read a page as Markdown / Ler uma página em Markdown",
    description:
      "Read one public page of the site as Markdown, by its URL (as search_site returns it, " +
      "anchor allowed) or its id. Long pages come in parts: ask for `page` 2, 3… while the " +
      "answer says there are more. " +
      "Lê uma página pública do site em Markdown, pelo endereço ou pelo id; páginas longas vêm " +
      "em partes (`page`).",
  },
  ask_site: {
    title: "Ask the site's assistant / Perguntar ao assistente",
    description:
      "Ask the site's own assistant a question. It searches the site and answers briefly, " +
      "citing passages as [N] with their URLs listed under the answer; when the site does not " +
      "cover the question it says so instead of guessing. " +
      "Faz uma pergunta ao assistente do site, que responde citando as páginas como [N] ou diz " +
      "que o site não trata do assunto.",
  },
} as const;
