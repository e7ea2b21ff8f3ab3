import type { DocPageData } from "@/lib/corpus/pages.ts";
import type { Locale, Messages } from "@/lib/i18n/mod.ts";
import { HOW_IT_WORKS_URL } from "./ChatShell.tsx";
import { Footer } from "./Footer.tsx";
import { Header } from "./Header.tsx";
import { Icon } from "./Icon.tsx";

/** The page chrome's own strings, in the visitor's UI language. */
const LABELS: Record<Locale, { source: string; license: string; askTitle: string; ask: string }> = {
  "pt-BR": {
    source: "Fonte",
    license: "Licença",
    askTitle: "Ficou alguma dúvida?",
    ask: "Pergunte ao assistente",
  },
  en: {
    source: "Source",
    license: "License",
    askTitle: "Still have a question?",
    ask: "Ask the assistant",
  },
};

/** The link to the other version, written in the language it leads to. */
const READ_IN: Record<"pt" | "en", { text: string; htmlLang: string }> = {
  en: { text: "Read in English", htmlLang: "en" },
  pt: { text: "Leia em português", htmlLang: "pt-BR" },
};

/** Licenses whose deed we can link to. */
const LICENSE_URLS: Record<string, string> = {
  "CC BY 4.0": "https://creativecommons.org/licenses/by/4.0/",
  "CC-BY-4.0": "https://creativecommons.org/licenses/by/4.0/",
  "CC BY-SA 4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
  "CC-BY-SA-4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
  "CC0 1.0": "https://creativecommons.org/publicdomain/zero/1.0/",
};

interface DocPageProps {
  page: DocPageData;
  locale: Locale;
  t: Messages;
  siteName: string;
  /** The public URL of the site's MCP server, for the footer's snippets; null: none. */
  mcpUrl?: string | null;
}

/**
 * A public corpus document as a page: the chat's header and footer around a
 * readable article column, with a way back to the chat, the other-language
 * version when there is one, and the document's source and license.
 */
export function DocPage({ page, locale, t, siteName, mcpUrl = null }: DocPageProps) {
  const l = LABELS[locale];
  const alt = page.alternate;
  const licenseUrl = LICENSE_URLS[page.license];
  const articleLang = page.lang === "en" ? "en" : "pt-BR";
  return (
    <div class="doc-shell">
      <Header siteName={siteName} t={t} otherLang={locale === "en" ? "pt-BR" : "en"} />
      <main class="doc-main" id="main">
        <nav class="doc-nav">
          <a class="doc-back" href="/">
            <Icon d="M15 18l-6-6 6-6" size={18} weight={2} />
            {t.backHome}
          </a>
          {alt && (
            <a
              class="doc-alt"
              href={alt.url}
              hreflang={READ_IN[alt.lang].htmlLang}
              lang={READ_IN[alt.lang].htmlLang}
              title={alt.title}
            >
              {READ_IN[alt.lang].text}
            </a>
          )}
        </nav>
        <article class="doc" lang={articleLang}>
          <div class="doc-body" dangerouslySetInnerHTML={{ __html: page.html }} />
        </article>
        <aside class="doc-ask">
          <p class="doc-ask-title">{l.askTitle}</p>
          <a class="button" href="/">{l.ask}</a>
        </aside>
        <p class="doc-meta">
          <span>
            {l.source}: {page.source}
          </span>
          <span class="doc-meta-dot" aria-hidden="true">·</span>
          <span>
            {l.license}: {licenseUrl
              ? (
                <a href={licenseUrl} rel="license noopener noreferrer" target="_blank">
                  {page.license}
                </a>
              )
              : page.license}
          </span>
        </p>
      </main>
      <Footer t={t} howUrl={HOW_IT_WORKS_URL[locale]} mcpUrl={mcpUrl} locale={locale} />
    </div>
  );
}
