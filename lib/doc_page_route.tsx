/**
 * The route of a corpus page: the manifest document whose url is `<prefix><slug>`, as HTML,
 * or as Markdown for agents (`<slug>.md`, or Accept: text/markdown). routes/sobre/[slug].tsx
 * (Portuguese) and routes/en/about/[slug].tsx (English) are this route under their prefix.
 */
import { define } from "@/lib/define.ts";
import { mcpPublicUrl } from "@/lib/mcp/public_url.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { messages } from "@/lib/i18n/mod.ts";
import type { DocPageData } from "@/lib/corpus/pages.ts";
import { DocPage } from "@/components/DocPage.tsx";
import { setHead } from "@/lib/http/head.ts";
import { localize } from "@/lib/i18n/localized.ts";
import { markdownPage } from "@/lib/corpus/markdown_page.ts";
import { publicDocs } from "@/lib/corpus/public_docs.ts";

/** The handler and page of the corpus pages under `prefix` ("/sobre/", "/en/about/"). */
export function docPageRoute(prefix: string) {
  const handler = define.handlers<DocPageData>({
    async GET(ctx) {
      const markdown = await markdownPage(ctx.req, prefix, ctx.params.slug, publicDocs);
      if (markdown) return markdown;
      // Loaded on the first page view, not at start: markdown-it and the search analyzer.
      const { docAlternates, docPages } = await import("@/lib/corpus/pages.ts");
      const page = await docPages.get(`${prefix}${ctx.params.slug}`);
      if (!page) throw new HttpError("not_found", `No page at "${ctx.url.pathname}".`);
      setHead(ctx.state, { title: page.title, alternates: docAlternates(page) });
      return ctx.render(page, {
        headers: { "Cache-Control": "public, max-age=300", Vary: "Accept" },
      });
    },
  });
  const page = define.page<DocPageData>(function CorpusPage({ data, state, app, url }) {
    const locale = localeOf(state);
    return (
      <DocPage
        page={data}
        locale={locale}
        t={messages(locale)}
        siteName={localize(app.config.site.name, locale)}
        mcpUrl={mcpPublicUrl(app, url)}
      />
    );
  });
  return { handler, page };
}
