import type { ComponentChildren } from "preact";
import { Footer } from "@/components/Footer.tsx";
import { Header } from "@/components/Header.tsx";
import { HOW_IT_WORKS_URL } from "@/components/ChatShell.tsx";
import { type Locale, messages } from "@/lib/i18n/mod.ts";
import { localize, type LocalizedText } from "@/lib/i18n/localized.ts";

/**
 * The frame of the owner's pages (/admin, /admin/login, /admin/messages): the site's header
 * in the page's language, one article, the footer. `after` goes below the article, inside
 * the main landmark (paging links).
 */
export function AdminShell({ locale, siteName, mainClass, after, children }: {
  locale: Locale;
  siteName: LocalizedText;
  mainClass?: string;
  after?: ComponentChildren;
  children: ComponentChildren;
}) {
  const t = messages(locale);
  return (
    <div class="doc-shell">
      <Header
        siteName={localize(siteName, locale)}
        t={t}
        otherLang={locale === "en" ? "pt-BR" : "en"}
      />
      <main class={mainClass ? `doc-main ${mainClass}` : "doc-main"} id="main">
        <article class="doc">
          <div class="doc-body">{children}</div>
        </article>
        {after}
      </main>
      <Footer t={t} howUrl={HOW_IT_WORKS_URL[locale]} />
    </div>
  );
}
