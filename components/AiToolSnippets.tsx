import type { Locale } from "@/lib/i18n/mod.ts";

/** The labels of the block, per language (kept here: only this component shows them). */
const LABELS: Record<Locale, { summary: string; intro: string; pages: string }> = {
  "pt-BR": {
    summary: "Use com sua ferramenta de IA",
    intro: "Conecte este site ao seu editor ou assistente (servidor MCP):",
    pages: "Páginas em Markdown para agentes:",
  },
  en: {
    summary: "Use with your AI tool",
    intro: "Connect this site to your editor or assistant (MCP server):",
    pages: "Pages as Markdown for agents:",
  },
};

/** The config snippets of common clients for the MCP server at `mcpUrl`. */
export function aiToolSnippets(mcpUrl: string): Array<{ client: string; code: string }> {
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
 * "Use with your AI tool": a closed `<details>` in the footer with each client's snippet,
 * selectable in one click (CSS `user-select: all`), and the link to /llms.txt. No script.
 */
export function AiToolSnippets({ mcpUrl, locale }: { mcpUrl: string; locale: Locale }) {
  const l = LABELS[locale];
  const llms = new URL("/llms.txt", mcpUrl).href;
  return (
    <details class="ai-tool">
      <summary>{l.summary}</summary>
      <div class="ai-tool-body">
        <p>{l.intro}</p>
        {aiToolSnippets(mcpUrl).map((s) => (
          <div class="ai-tool-snippet" key={s.client}>
            <span class="ai-tool-client">{s.client}</span>
            <pre tabIndex={0}><code>{s.code}</code></pre>
          </div>
        ))}
        <p>
          {l.pages} <a href={llms}>{llms}</a>
        </p>
      </div>
    </details>
  );
}
