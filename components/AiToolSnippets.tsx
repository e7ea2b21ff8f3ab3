import type { ComponentChildren } from "preact";
import type { Locale } from "@/lib/i18n/mod.ts";

/** The texts of "Use with your AI tool", per language (kept here: only these views show them). */
const LABELS: Record<
  Locale,
  {
    summary: string;
    action: string;
    intro: string;
    pages: string;
    copy: string;
    copied: string;
    copyFailed: string;
  }
> = {
  "pt-BR": {
    summary: "Use com sua ferramenta de IA",
    action: "Usar com sua ferramenta de IA",
    intro: "Conecte este site ao seu editor ou assistente (servidor MCP):",
    pages: "Páginas em Markdown para agentes:",
    copy: "Copiar",
    copied: "Copiado.",
    copyFailed: "Não foi possível copiar: selecione o texto e copie com Ctrl+C.",
  },
  en: {
    summary: "Use with your AI tool",
    action: "Use with your AI tool",
    intro: "Connect this site to your editor or assistant (MCP server):",
    pages: "Pages as Markdown for agents:",
    copy: "Copy",
    copied: "Copied.",
    copyFailed: "Could not copy: select the text and copy it with Ctrl+C.",
  },
};

/** The texts of "Use with your AI tool" in `locale` (the footer's and the widget's). */
export function aiToolLabels(locale: Locale): (typeof LABELS)[Locale] {
  return LABELS[locale] ?? LABELS["pt-BR"];
}

/** One client's config snippet. */
export interface AiToolSnippet {
  client: string;
  code: string;
}

/** The config snippets of common clients for the MCP server at `mcpUrl`. */
export function aiToolSnippets(mcpUrl: string): AiToolSnippet[] {
  const name = "site-assistant";
  return [
    { client: "Claude Code", code: `claude mcp add --transport http ${name} ${mcpUrl}` },
    {
      client: "Cursor (.cursor/mcp.json)",
      code: JSON.stringify({ mcpServers: { [name]: { url: mcpUrl } } }, null, 2),
    },
    {
      client: "VS Code (.vscode/mcp.json)",
      code: JSON.stringify({ servers: { [name]: { type: "http", url: mcpUrl } } }, null, 2),
    },
  ];
}

/**
 * The snippets with their clients' names, then the link to /llms.txt: the one list the
 * footer and the widget both show. `action` adds a control under each snippet (the widget's
 * Copy button); each `<pre>` has the id `<idPrefix>-<index>` for it to name.
 */
export function AiToolSnippetList(
  { mcpUrl, locale, idPrefix = "ai-tool", action }: {
    mcpUrl: string;
    locale: Locale;
    idPrefix?: string;
    action?: (snippet: AiToolSnippet, preId: string) => ComponentChildren;
  },
) {
  const l = aiToolLabels(locale);
  const llms = new URL("/llms.txt", mcpUrl).href;
  return (
    <div class="ai-tool-body ai-tool-list">
      <p>{l.intro}</p>
      {aiToolSnippets(mcpUrl).map((s, i) => (
        <div class="ai-tool-snippet" key={s.client}>
          <span class="ai-tool-client" id={`${idPrefix}-${i}-client`}>{s.client}</span>
          <pre tabIndex={0} id={`${idPrefix}-${i}`} aria-labelledby={`${idPrefix}-${i}-client`}>
            <code>{s.code}</code>
          </pre>
          {action?.(s, `${idPrefix}-${i}`)}
        </div>
      ))}
      <p>
        {l.pages} <a href={llms} target="_blank" rel="noopener">{llms}</a>
      </p>
    </div>
  );
}

/**
 * "Use with your AI tool": a closed `<details>` in the footer with each client's snippet,
 * selectable in one click (CSS `user-select: all`), and the link to /llms.txt. No script.
 */
export function AiToolSnippets({ mcpUrl, locale }: { mcpUrl: string; locale: Locale }) {
  return (
    <details class="ai-tool">
      <summary>{aiToolLabels(locale).summary}</summary>
      <AiToolSnippetList mcpUrl={mcpUrl} locale={locale} />
    </details>
  );
}
