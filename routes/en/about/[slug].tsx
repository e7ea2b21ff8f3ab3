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

/** An English corpus page: the manifest document whose url is /en/about/<slug>. */
export const handler = define.handlers<DocPageData>({
  async GET(ctx) {
    // `<slug>.md`, or Accept: text/markdown: the page's Markdown, for agents.
    const markdown = await markdownPage(ctx.req, "/en/about/", ctx.params.slug, publicDocs);
    if (markdown) return markdown;
    // Loaded on the first page view, not at start: markdown-it and the search analyzer.
    const { docAlternates, docPages } = await import("@/lib/corpus/pages.ts");
    const page = await docPages.get(`/en/about/${ctx.params.slug}`);
    if (!page) throw new HttpError("not_found", `No page at "${ctx.url.pathname}".`);
    setHead(ctx.state, { title: page.title, alternates: docAlternates(page) });
    return ctx.render(page, {
      headers: { "Cache-Control": "public, max-age=300", Vary: "Accept" },
    });
  },
});

export default define.page<DocPageData>(function AboutPage({ data, state, app, url }) {
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
